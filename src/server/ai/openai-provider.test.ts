import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareQueryTestData, type QueryTestData } from "../modules/query/query-test-data";
import { readNdjson, type Line } from "../modules/chat/chat-test-support";
import { createTestPlatform, type TestPlatform } from "../testing/test-platform";
import { startOpenAiDouble, type OpenAiDouble } from "./testing/openai-double";
import { MAX_STEPS } from "./types";
import { createShopDeployment, embedSession } from "../testing/shop-deployment";

/**
 * The openai-compatible provider against a double of a model server that streams tool calls
 * in fragments and misbehaves on purpose. The platform refuses each misbehaviour cleanly,
 * leaks nothing into prompts, and keeps serving.
 */
const API_KEY = "sk-double-secret-key-1234567890";
let data: QueryTestData;
let double: OpenAiDouble;
let t: TestPlatform;
let deploymentId: number;
let token: string;
let sessionId: string;

const revenueQuery = JSON.stringify({ query: { measures: ["sales.revenue"], dimensions: ["sales.products_category"], order: [["sales.revenue", "desc"]] } });

beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 3000, postgres: false });
  double = await startOpenAiDouble();
  t = await createTestPlatform({
    mutateDeps: (deps) => ({ ...deps, ai: { provider: "openai-compatible", baseUrl: double.url, apiKey: API_KEY, model: "double-model", timeBudgetMs: 1500 } }),
  });
  deploymentId = await createShopDeployment(t, data.duckdbPath);
  const gen = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId, externalId: "ann", embedTenantName: "acme-corp" });
  sessionId = ((await gen.json()) as { sessionId: string }).sessionId;
  const ex = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
  token = ((await ex.json()) as { token: string }).token;

  const s = double.scripts;
  s.set("ok", {
    kind: "steps",
    steps: [
      { calls: [{ name: "list_views", args: "{}" }] },
      { calls: [{ name: "describe_view", args: '{"view":"sales"}' }] },
      { calls: [{ name: "run_query", args: revenueQuery }] },
      { calls: [{ name: "render_chart", args: '{"type":"bar","x":"sales.products_category","y":["sales.revenue"]}' }] },
      { text: "Electronics sells the most." },
    ],
  });
  s.set("two calls at once", {
    kind: "steps",
    steps: [
      {
        calls: [
          { name: "list_views", args: "{}" },
          { name: "run_query", args: revenueQuery },
        ],
      },
      { text: "Done." },
    ],
  });
  s.set("malformed", {
    kind: "steps",
    steps: [
      { calls: [{ name: "run_query", args: '{"query": {"measures": [' }] },
      { calls: [{ name: "run_query", args: revenueQuery }] },
      { text: "Repaired." },
    ],
  });
  s.set("sql", {
    kind: "steps",
    steps: [
      { calls: [{ name: "run_sql", args: '{"sql":"SELECT * FROM orders"}' }] },
      { calls: [{ name: "run_query", args: '{"sql":"SELECT tenant, sum(amount) FROM orders GROUP BY 1"}' }] },
      { text: "I cannot run SQL." },
    ],
  });
  s.set("outside policy", {
    kind: "steps",
    steps: [
      { calls: [{ name: "run_query", args: JSON.stringify({ query: { measures: ["orders.revenue"], dimensions: ["orders.tenant"] } }) }] },
      { calls: [{ name: "describe_view", args: '{"view":"orders"}' }] },
      { text: "That is not available." },
    ],
  });
  s.set("widen", {
    kind: "steps",
    steps: [
      {
        calls: [
          {
            name: "run_query",
            args: JSON.stringify({
              query: {
                measures: ["sales.count"],
                filters: [
                  {
                    or: [
                      { member: "sales.status", operator: "set", values: [] },
                      { member: "sales.customers_country", operator: "notEquals", values: ["__none__"] },
                    ],
                  },
                ],
              },
            }),
          },
        ],
      },
      { text: "Counted." },
    ],
  });
  s.set("save it", {
    kind: "steps",
    steps: [
      { calls: [{ name: "run_query", args: revenueQuery }] },
      { calls: [{ name: "save_report", args: JSON.stringify({ title: "Revenue by category (model)", ...JSON.parse(revenueQuery) }) }] },
      { text: "Saved." },
    ],
  });
  s.set("stall", { kind: "stall" });
  s.set("rate limited", { kind: "status", status: 429, body: '{"error":{"message":"slow down SECRET-429-BODY"}}' });
  s.set("server error", { kind: "status", status: 500, body: '{"error":{"message":"boom SECRET-500-BODY"}}' });
  s.set("loop", { kind: "loop" });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await double?.close();
  await data?.cleanup();
});

async function ask(question: string, as = token): Promise<Line[]> {
  const created = await t.api("POST", `/api/v1/deployments/${deploymentId}/chat/threads`, {}, as);
  const { id } = (await created.json()) as { id: string };
  const res = await t.api("POST", `/api/v1/deployments/${deploymentId}/chat/threads/${id}/messages`, { content: question }, as);
  expect(res.status).toBe(200);
  return readNdjson(res);
}

const requestsFor = (question: string) => double.requests.filter((r) => r.body.messages.some((m) => m.role === "user" && m.content === question));
/** The tool results the model was sent in the turn (the last request carries them all). */
const toolMessages = (question: string) => (requestsFor(question).at(-1)?.body.messages ?? []).filter((m) => m.role === "tool").map((m) => String(m.content));
const textOf = (lines: Line[]) =>
  lines
    .filter((l) => l.type === "text")
    .map((l) => String(l.text))
    .join("");
const endOf = (lines: Line[]) => lines[lines.length - 1]!;
/** Whether each tool call of the answer succeeded. */
const lines0 = (lines: Line[]) => lines.filter((l) => l.type === "tool_result").map((l) => l.ok);

async function acmeRows(query: unknown) {
  const res = await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, { query }, token);
  return ((await res.json()) as { data: Record<string, unknown>[] }).data;
}

describe("openai-compatible provider against a misbehaving model server", () => {
  it("streams tool calls split across chunks, runs them under the viewer's context and streams the answer", async () => {
    const lines = await ask("ok");
    expect(lines[0]).toMatchObject({ __cutoff__: true });
    expect(lines.filter((l) => l.type === "tool_call").map((l) => l.name)).toEqual(["list_views", "describe_view", "run_query", "render_chart"]);
    expect(lines.filter((l) => l.type === "tool_result").every((l) => l.ok === true)).toBe(true);
    const table = lines.find((l) => l.type === "table") as Line & { rows: unknown[] };
    expect(table.rows).toEqual(await acmeRows(JSON.parse(revenueQuery).query));
    expect(lines.some((l) => l.type === "chart")).toBe(true);
    expect(textOf(lines)).toBe("Electronics sells the most.");
    // Text deltas arrive as several lines of one part.
    expect(lines.filter((l) => l.type === "text").length).toBeGreaterThan(1);
    expect(endOf(lines).__state__).toMatchObject({ status: "completed", content: "Electronics sells the most." });

    const sent = requestsFor("ok");
    expect(sent).toHaveLength(5);
    expect(sent[0]!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent[0]!.body.model).toBe("double-model");
    expect(sent[0]!.body.tools!.map((x) => x.function.name)).toEqual(["list_views", "describe_view", "run_query", "render_chart"]);
  });

  it("runs several tool calls of one answer", async () => {
    const lines = await ask("two calls at once");
    expect(lines.filter((l) => l.type === "tool_call").map((l) => l.name)).toEqual(["list_views", "run_query"]);
    expect(endOf(lines).__state__).toBeDefined();
  });

  it("sends malformed arguments back to the model, which repairs them", async () => {
    const lines = await ask("malformed");
    const results = lines.filter((l) => l.type === "tool_result");
    expect(results.map((r) => r.ok)).toEqual([false, true]);
    expect(toolMessages("malformed")[0]).toMatch(/not valid JSON/);
    expect(textOf(lines)).toBe("Repaired.");
  });

  it("refuses SQL: no such tool, and run_query takes no SQL", async () => {
    const lines = await ask("sql");
    expect(lines.filter((l) => l.type === "tool_result").map((l) => l.ok)).toEqual([false, false]);
    expect(lines.some((l) => l.type === "table")).toBe(false);
    const tools = toolMessages("sql");
    expect(tools[0]).toMatch(/Unknown tool/);
    expect(tools[1]).toMatch(/SQL is never accepted/);
  });

  it("refuses members outside the viewer's policy", async () => {
    const lines = await ask("outside policy");
    expect(lines.filter((l) => l.type === "tool_result").map((l) => l.ok)).toEqual([false, false]);
    const tools = toolMessages("outside policy");
    expect(tools[0]).toMatch(/not allowed members: orders\.revenue, orders\.tenant/);
    expect(tools.join(" ")).not.toMatch(/globex/);
  });

  it("keeps row-level security when filters try to widen it: the model sees the tenant's rows only", async () => {
    const lines = await ask("widen");
    const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, number>[] };
    const acme = await acmeRows({ measures: ["sales.count"] });
    expect(table.rows[0]!["sales.count"]).toBe(acme[0]!["sales.count"]);
    const admin = await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, { query: { measures: ["sales.count"] } });
    const all = ((await admin.json()) as { data: Record<string, number>[] }).data[0]!["sales.count"]!;
    expect(all).toBeGreaterThan(acme[0]!["sales.count"] as number);
    expect(toolMessages("widen")[0]).toContain(`"sales.count":${acme[0]!["sales.count"]}`);
  });

  it("offers save_report only where the viewer may save answers, and saves into their personal space", async () => {
    // A viewer without allowChatWorkspaceAuthoring: the tool is not offered, and a call of it is refused.
    const refused = await ask("save it");
    expect(lines0(refused)).toEqual([true, false]);
    expect(requestsFor("save it")[0]!.body.tools!.map((x) => x.function.name)).not.toContain("save_report");
    expect(toolMessages("save it")[1]).toMatch(/save_report is not allowed/);

    const { token: creator } = await embedSession(t, deploymentId, {
      externalId: "cora",
      embedTenantName: "acme-corp",
      creatorMode: true,
      settings: { allowChatWorkspaceAuthoring: true },
    });
    double.requests.length = 0;
    const saved = await ask("save it", creator);
    expect(lines0(saved)).toEqual([true, true]);
    expect(requestsFor("save it")[0]!.body.tools!.map((x) => x.function.name)).toContain("save_report");
    const search = await t.api("GET", `/api/v1/deployments/${deploymentId}/app/search?q=model`, undefined, creator);
    const items = ((await search.json()) as { items: { type: string; name: string; folderId: number | null }[] }).items;
    expect(
      items
        .filter((i) => i.name === "Revenue by category (model)")
        .map((i) => [i.type, i.folderId])
        .sort(),
    ).toEqual([
      ["REPORT", null],
      ["WORKBOOK", null],
    ]);
  });

  it("ends a stalled answer at the time budget, and keeps serving", async () => {
    const lines = await ask("stall");
    expect(endOf(lines)).toEqual({ error: { code: "ai_timeout", message: expect.any(String) } });
    const next = await ask("ok");
    expect(endOf(next).__state__).toBeDefined();
  });

  it("reports 429 and 500 without the server's words", async () => {
    const limited = await ask("rate limited");
    expect(endOf(limited)).toMatchObject({ error: { code: "ai_rate_limited" } });
    expect(JSON.stringify(limited)).not.toContain("SECRET-429-BODY");
    const failed = await ask("server error");
    expect(endOf(failed)).toMatchObject({ error: { code: "ai_provider_failed" } });
    expect(JSON.stringify(failed)).not.toContain("SECRET-500-BODY");
    expect(endOf(await ask("ok")).__state__).toBeDefined();
  });

  it(`stops a model that keeps calling tools after ${MAX_STEPS} steps`, async () => {
    const lines = await ask("loop");
    expect(lines.filter((l) => l.type === "tool_call").length).toBe(MAX_STEPS);
    expect(textOf(lines)).toBe("Stopping here.");
    const last = requestsFor("loop").at(-1)!;
    expect(last.body.tools).toBeUndefined();
  });

  it("never puts a key, a token or a session id into a prompt", () => {
    const everything = JSON.stringify(double.requests.map((r) => r.body));
    expect(double.requests.length).toBeGreaterThan(10);
    for (const secret of [API_KEY, token, sessionId, t.adminToken]) expect(everything).not.toContain(secret);
  });
});
