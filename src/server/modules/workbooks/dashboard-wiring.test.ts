import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

// Filter wiring (FILTER config.targets) and click behaviour (CHART config.click) through the
// dashboard draft and publish operations: what PUT accepts, GET and publish return as sent;
// a malformed field is a 400 naming it.
describe("dashboard wiring fields through the API", () => {
  let t: TestPlatform;
  let base = "";
  const at = { x: 0, y: 0, w: 3, h: 2 };
  const draft = {
    title: "Wired",
    widgets: [
      {
        id: "country",
        type: "FILTER",
        position: at,
        config: { member: "sales.customers_country", control: "values", targets: [{ widgetId: "revenue", member: "sales.customers_country" }] },
      },
      { id: "revenue", type: "CHART", position: at, config: { click: { action: "event", name: "open-country" } } },
      {
        id: "orders",
        type: "CHART",
        position: at,
        config: { click: { action: "link", dashboardPublicId: "abcDEF123456", workbookId: 3, filterMember: "sales.customers_country" } },
      },
    ],
  };

  beforeAll(async () => {
    t = await createTestPlatform({ storage: storageKinds[0] });
    const [dep] = await t.addDeployments("main");
    base = `/api/v1/deployments/${dep}/workbooks`;
  });
  afterAll(() => t?.close());

  it("keeps targets and click as sent, in the draft and in the published dashboard", async () => {
    const wb = await (await t.api("PUT", `${base}/by-slug/wired`, { name: "Wired" })).json();
    const put = await t.api("PUT", `${base}/${wb.id}/dashboard/draft`, draft);
    expect(put.status).toBe(200);
    expect((await (await t.api("GET", `${base}/${wb.id}`)).json()).dashboardDraft).toEqual(draft);
    const published = await t.api("POST", `${base}/${wb.id}/dashboard/publish`);
    expect(published.status).toBe(200);
    expect((await published.json()).config.widgets).toEqual(draft.widgets);
  });

  it.each([
    ["a target member without its view", { targets: [{ widgetId: "revenue", member: "country" }] }, "FILTER", "targets"],
    ["a click to an unknown action", { click: { action: "navigate", url: "https://evil.example" } }, "CHART", "click"],
    ["a link to a path instead of a dashboard", { click: { action: "link", dashboardPublicId: "../../admin", filterMember: "sales.city" } }, "CHART", "click"],
  ])("refuses %s with a 400 naming the field", async (_name, config, type, field) => {
    const wb = await (await t.api("PUT", `${base}/by-slug/bad-${field}-${type}`, { name: "Bad" })).json();
    const res = await t.api("PUT", `${base}/${wb.id}/dashboard/draft`, {
      widgets: [{ id: "w", type, position: at, config: { member: "sales.status", ...config } }],
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; details: { path: (string | number)[] }[] };
    expect(body.code).toBe("validation_failed");
    expect(body.details[0]!.path.slice(0, 4)).toEqual(["widgets", 0, "config", field]);
    expect((await (await t.api("GET", `${base}/${wb.id}`)).json()).dashboardDraft ?? null).toBeNull();
  });
});
