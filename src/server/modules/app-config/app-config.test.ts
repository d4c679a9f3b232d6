import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";

describe("GET /api/v1/app-config", () => {
  let t: TestPlatform;
  let embedToken: string;
  beforeAll(async () => {
    t = await createTestPlatform();
    const [dep] = await t.addDeployments("app-config");
    const gen = await (
      await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: dep, externalId: "x@acme.test", embedTenantName: "acme-corp" })
    ).json();
    embedToken = (await (await t.api("POST", "/api/v1/embed/session/token", { sessionId: gen.sessionId }, null)).json()).token;
  });
  afterAll(() => t?.close());

  const defaults = {
    appTheme: null,
    applyThemeGlobally: false,
    creatorMode: { localizedTitles: [], showGeneratedSql: false, showSemanticSql: true },
    embedding: { locale: null, showDashboardChat: false },
    sheetsUi: { showAppliedFilters: true },
  };

  it("answers the defaults of decisions.md to platform users and embed viewers alike", async () => {
    const admin = await t.api("GET", "/api/v1/app-config");
    expect(admin.status).toBe(200);
    expect(await admin.json()).toEqual(defaults);
    const embed = await t.api("GET", "/api/v1/app-config", undefined, embedToken);
    expect(await embed.json()).toEqual(defaults);
  });

  it("needs credentials", async () => {
    expect((await t.api("GET", "/api/v1/app-config", undefined, null)).status).toBe(401);
  });
});
