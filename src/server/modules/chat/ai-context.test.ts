import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AI_CONTEXT_LIMITS } from "../../../protocol/constants";
import { CHAT_CONTEXT_LIMITS } from "../../../schema/chat";
import { prepareQueryTestData, type QueryTestData } from "../query/query-test-data";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { createShopDeployment, embedSession } from "../../testing/shop-deployment";
import { narrowScope } from "./ai-context";
import { contextNote } from "./ai-context-words";
import { readNdjson, type Line } from "./chat-test-support";

let data: QueryTestData;
let t: TestPlatform;
let deploymentId: number;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 3000, postgres: false });
  t = await createTestPlatform();
  deploymentId = await createShopDeployment(t, data.duckdbPath);
  for (const [key, tenant] of [
    ["acme", "acme-corp"],
    ["globex", "globex-inc"],
  ] as const)
    tokens[key] = (await embedSession(t, deploymentId, { externalId: "ann", embedTenantName: tenant })).token;
}, 60_000);
afterAll(async () => {
  await t?.close();
  data?.cleanup();
});

const threads = () => `/api/v1/deployments/${deploymentId}/chat/threads`;

/** The revenue the query API answers this caller, under these filters. */
async function revenue(token: string, filters: unknown[] = []): Promise<number> {
  const res = await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, { query: { measures: ["sales.revenue"], filters } }, token);
  expect(res.status, await res.clone().text()).toBe(200);
  return Number(((await res.json()) as { data: Record<string, unknown>[] }).data[0]!["sales.revenue"]);
}

async function ask(token: string, content: string, context?: unknown) {
  const thread = await t.api("POST", threads(), {}, token);
  const { id } = (await thread.json()) as { id: string };
  return t.api("POST", `${threads()}/${id}/messages`, { content, ...(context ? { context } : {}) }, token);
}

describe("AI context from the host (set-ai-context)", () => {
  it("has the protocol guard's limits", () => {
    expect(CHAT_CONTEXT_LIMITS).toEqual(AI_CONTEXT_LIMITS);
  });

  it("applies its filters under row-level security: an acme viewer sees a part of acme's figure, never globex's", async () => {
    const countries = await t.api(
      "POST",
      `/api/v1/deployments/${deploymentId}/query`,
      { query: { measures: ["sales.revenue"], dimensions: ["sales.customers_country"], order: [["sales.revenue", "desc"]] } },
      tokens.acme,
    );
    const country = String(((await countries.json()) as { data: Record<string, unknown>[] }).data[0]!["sales.customers_country"]);
    const filter = { member: "sales.customers_country", operator: "equals", values: [country] };
    const [acmeAll, acmeThere, globexThere] = await Promise.all([revenue(tokens.acme!), revenue(tokens.acme!, [filter]), revenue(tokens.globex!, [filter])]);
    expect(acmeThere).toBeGreaterThan(0);
    expect(acmeThere).toBeLessThan(acmeAll);
    expect(globexThere).not.toBeCloseTo(acmeThere, 2);

    const res = await ask(tokens.acme!, "total revenue", {
      title: "Account: Acme, one country",
      filters: [{ member: "sales.customers_country", value: country }],
      views: ["sales"],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const lines = await readNdjson(res);
    const query = lines.find((l) => l.type === "query") as Line & { query: { filters?: unknown[] } };
    expect(query.query.filters).toContainEqual(filter);
    const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, unknown>[] };
    expect(Number(table.rows[0]!["sales.revenue"])).toBeCloseTo(acmeThere, 2);
    const state = (lines[lines.length - 1] as { __state__: { content: string } }).__state__;
    expect(state.content).toContain("Account: Acme, one country");
    // The country by its name in the viewer's language, the view by its title.
    expect(state.content).toMatch(/: Country: [^;]+; views: Sales\./);
    expect(state.content).toMatch(/Within your own access/);
  });

  it("says what it would apply", async () => {
    const res = await t.api(
      "POST",
      `/api/v1/deployments/${deploymentId}/chat/context`,
      { title: "EU", filters: [{ member: "sales.status", operator: "not_equals", value: ["cancelled", "returned"] }], views: ["sales"] },
      tokens.acme,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({
      title: "EU",
      views: ["sales"],
      filters: [{ member: "sales.status", operator: "not_equals", value: ["cancelled", "returned"] }],
    });
  });

  it.each([
    [{ views: ["warehouse"] }, "context.views.0"],
    [{ filters: [{ member: "sales.shoe_size", value: 42 }] }, "context.filters.0.member"],
    // A measure is not a dimension to narrow by.
    [{ filters: [{ member: "sales.revenue", operator: "greater_than", value: 1 }] }, "context.filters.0.member"],
    // A member of a view the context does not name.
    [{ views: ["sales"], filters: [{ member: "customer_base.country", value: "DE" }] }, "context.filters.0.member"],
    [{ filters: [{ member: "sales.amount", operator: "between", value: [1] }] }, "context.filters.0.value"],
    [{ filters: [{ member: "sales.status", operator: "matches", value: "x" }] }, "context.filters.0.operator"],
  ])("refuses %j with a 400 naming %s, on the check and on a question", async (context, field) => {
    const check = await t.api("POST", `/api/v1/deployments/${deploymentId}/chat/context`, context, tokens.acme);
    const question = await ask(tokens.acme!, "total revenue", context);
    for (const [res, path] of [
      [check, field.replace(/^context\./, "")],
      [question, field],
    ] as const) {
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; message: string; details: { path: (string | number)[] }[] };
      expect(body.code).toBe("validation_failed");
      expect(body.details.map((d) => d.path.join("."))).toContain(path);
    }
  });

  it("cannot widen: the cubes' tenant column and the hidden cubes are not there to filter on, and a view the policies deny is refused", async () => {
    for (const member of ["orders.tenant", "sales.tenant"]) {
      const res = await ask(tokens.acme!, "total revenue", { filters: [{ member, value: "globex-inc" }] });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(member);
    }
    expect(
      (
        await t.api("PUT", "/api/v1/tenant/settings", {
          ai: { chatThreadPolicies: [{ actions: ["create"], effect: "deny", resourceType: "chatThread", resources: ["customer_base"] }] },
        })
      ).status,
    ).toBe(200);
    try {
      const res = await ask(tokens.acme!, "how many customers", { views: ["customer_base"] });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(
        /context\.views\.0: unknown view "customer_base", or one this viewer may not ask about/,
      );
    } finally {
      await t.api("PUT", "/api/v1/tenant/settings", { ai: { chatThreadPolicies: [] } });
    }
  });

  it("narrows a dashboard's scope rather than replacing it", () => {
    const dashboard = { views: ["sales", "customer_base"], filters: [{ member: "sales.status", operator: "equals" as const, values: ["completed"] }] };
    const context = { views: ["sales"], filters: [{ member: "sales.customers_country", operator: "equals" as const, values: ["DE"] }] };
    expect(narrowScope(dashboard, context)).toEqual({ views: ["sales"], filters: [...dashboard.filters, ...context.filters] });
    // A context naming a view the dashboard does not use leaves no view at all, not the context's.
    expect(narrowScope(dashboard, { views: ["orders_raw"], filters: [] })?.views).toEqual([]);
    expect(narrowScope(dashboard, { filters: [] })).toEqual(dashboard);
    expect(narrowScope(undefined, context)).toEqual(context);
  });

  it.each([
    ["en-US", "_Answered for this page's context “EU”: Country: Germany or France; views: Sales. Within your own access only._"],
    [
      "de-DE",
      "_Beantwortet für den Kontext dieser Seite „EU“: Land: Deutschland oder Frankreich; Sichten: Verkauf. Nur innerhalb Ihrer eigenen Berechtigungen._",
    ],
    ["es-ES", "_Respondido para el contexto de esta página «EU»: País: Alemania o Francia; vistas: Ventas. Solo dentro de su propio acceso._"],
  ])("opens the answer with the context in %s", (locale, line) => {
    const names: Record<string, Record<string, string>> = {
      "en-US": { country: "Country", DE: "Germany", FR: "France", sales: "Sales" },
      "de-DE": { country: "Land", DE: "Deutschland", FR: "Frankreich", sales: "Verkauf" },
      "es-ES": { country: "País", DE: "Alemania", FR: "Francia", sales: "Ventas" },
    };
    const n = names[locale]!;
    const applied = { title: "EU", views: ["sales"], filters: [{ member: "sales.customers_country", operator: "equals" as const, value: ["DE", "FR"] }] };
    const note = contextNote(locale, applied, {
      memberTitle: () => n.country!,
      valueLabel: (_m, v) => n[String(v)],
      viewTitle: (v) => n[v]!,
      restrictsViews: true,
    });
    expect(note.trim()).toBe(line);
  });
});
