import { DEFAULT_AI_SETTINGS, type AiEnvSettings } from "../../config";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../demo/seed";
import { silentLogger } from "../../logger";
import { startOpenAiDouble, type OpenAiDouble } from "../../ai/testing/openai-double";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { embedSession } from "../../testing/shop-deployment";
import { builtinMarkdown } from "./ai-widget";
import { PLAIN_LOCALIZER } from "./ai-widget-summary";

/**
 * The AI widget of the demo dashboard ("Which category had the most revenue last quarter?"):
 * written by the builtin engine when no model is configured, and by the configured
 * openai-compatible model otherwise — with tools limited to the dashboard's reports, under the
 * viewer's filters and row-level security, and nothing secret in the prompt.
 */
const API_KEY = "sk-widget-double-key-0987654321";
const PROMPT = "Which category had the most revenue last quarter?";
const CANADA = 'f_sales.customers_country={"value":["CA"]}';

let t: TestPlatform;
let dir: string;
let double: OpenAiDouble;
let publicId: string;
let deploymentId: number;
const tok: Record<string, string> = {};
const sessions: string[] = [];

async function embedToken(tenant: string, externalId: string) {
  const { sessionId, token } = await embedSession(t, deploymentId, { externalId, embedTenantName: tenant });
  sessions.push(sessionId);
  return token;
}

const answer = (token: string, body: Record<string, unknown> = {}) => t.api("POST", `/api/v1/embed/dashboard/${publicId}/ai-widgets/ask/answer`, body, token);

async function rows(token: string, query: unknown) {
  const res = await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, { query }, token);
  return ((await res.json()) as { data: Record<string, unknown>[] }).data;
}

/** The platform's AI settings (as config.ts gives them at start-up); the tests switch the model on and off. */
const ai: AiEnvSettings = { ...DEFAULT_AI_SETTINGS };
function useBuiltin() {
  Object.assign(ai, DEFAULT_AI_SETTINGS);
}
function useModel() {
  Object.assign(ai, { provider: "openai-compatible", baseUrl: double.url, apiKey: API_KEY, model: "widget-model", timeBudgetMs: 5000 });
}

const byCategory = { measures: ["sales.revenue"], dimensions: ["sales.products_category"], order: [["sales.revenue", "desc"]] };

beforeAll(async () => {
  double = await startOpenAiDouble();
  t = await createTestPlatform({ mutateDeps: (deps) => ({ ...deps, ai }) });
  dir = await mkdtemp(path.join(os.tmpdir(), "svc-ai-widget-"));
  const seeded = await seedDemo({ db: t.database.db, dataDir: dir, rows: 1500, adminUserId: t.adminUserId, demoHostOrigin: null, logger: silentLogger });
  publicId = seeded!.dashboardPublicId;
  deploymentId = seeded!.deploymentId;
  tok.acme = await embedToken("acme-corp", "ann");
  tok.acme2 = await embedToken("acme-corp", "amy");
  tok.globex = await embedToken("globex-inc", "gus");
  double.scripts.set(PROMPT, {
    kind: "steps",
    steps: [
      { calls: [{ name: "describe_view", args: '{"view":"sales"}' }] },
      // A member no report of the dashboard uses, then the dashboard's own question.
      { calls: [{ name: "run_query", args: JSON.stringify({ query: { measures: ["sales.revenue"], dimensions: ["sales.products_name"] } }) }] },
      { calls: [{ name: "run_query", args: JSON.stringify({ query: byCategory }) }] },
      { text: "**Electronics** had the most revenue." },
    ],
  });
}, 120_000);

afterEach(() => {
  Object.assign(ai, { ...DEFAULT_AI_SETTINGS, baseUrl: undefined, apiKey: undefined, model: undefined });
});

afterAll(async () => {
  await t?.close();
  await double?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("AI widget", () => {
  it("says honestly what the data does not hold when the builtin engine cannot read its prompt", async () => {
    const ctx = {
      deploymentId,
      engine: await t.deps.queryEngines.get(deploymentId),
      securityContext: { embedTenant: "acme-corp", groups: [], userAttributes: {}, role: "viewer" as const },
      locale: "en",
      allowAuthoring: false,
      signal: new AbortController().signal,
      queryTimeoutMs: 30_000,
      includeSql: false,
    };
    const segment = await builtinMarkdown(ctx, "average order value by customer segment", [], PLAIN_LOCALIZER);
    expect(segment).toContain("There is no segment in this data");
    expect(segment).not.toMatch(/\d{3}/);
    expect(await builtinMarkdown(ctx, "delete all orders", [], PLAIN_LOCALIZER)).toContain("only reads data");
  });

  it("is written by the builtin engine when no model is configured", async () => {
    const res = await answer(tok.acme!);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { markdown: string; stale: boolean };
    expect(body.markdown).toContain(`**${PROMPT}**`);
    expect(body.stale).toBe(false);
    expect(double.requests).toHaveLength(0);
  });

  it("is written by the configured model, with tools limited to the dashboard's reports under the viewer's filters", async () => {
    useModel();
    // The builtin answer cached above was written by another engine: the model writes it anew.
    const rewritten = (await (await answer(tok.acme!)).json()) as { markdown: string; stale: boolean };
    expect(rewritten).toMatchObject({ markdown: "**Electronics** had the most revenue.", stale: false });
    expect(double.requests.length).toBeGreaterThan(0);
    double.requests.length = 0;

    const res = await answer(tok.acme2!, { filterUrlParameters: [CANADA] });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { markdown: string; stale: boolean };
    // Written for the viewer's filters, and saying which (the values by name).
    expect(body.stale).toBe(false);
    expect(body.markdown).toMatch(/^_For [^_]*: Canada\._\n\n\*\*Electronics\*\* had the most revenue\.$/);

    const sent = double.requests;
    expect(sent).toHaveLength(4);
    expect(sent[0]!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent[0]!.body.model).toBe("widget-model");
    // Read-only tools: nothing is saved from a widget.
    expect(sent[0]!.body.tools!.map((x) => x.function.name)).toEqual(["list_views", "describe_view", "run_query", "render_chart"]);
    const question = String(sent[0]!.body.messages.find((m) => m.role === "user")!.content);
    expect(question.split("\n")[0]).toBe(PROMPT);
    expect(question).toContain('"sales.revenue"');

    const tools = sent[3]!.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    // describe_view shows only the members of the dashboard's reports and filters.
    const described = JSON.parse(tools[0]!) as { measures: { name: string }[]; dimensions: { name: string }[] };
    const names = [...described.measures, ...described.dimensions].map((m) => m.name);
    expect(names).toContain("sales.products_category");
    expect(names).toContain("sales.customers_country");
    expect(names).not.toContain("sales.products_name");
    expect(names).not.toContain("sales.customers_name");
    // A member outside the dashboard's reports is refused.
    expect(tools[1]).toMatch(/not allowed members: sales\.products_name/);
    // The rows the model saw are the viewer's, narrowed by the dashboard filter (Canada only).
    const canada = await rows(tok.acme2!, { ...byCategory, filters: [{ member: "sales.customers_country", operator: "equals", values: ["CA"] }] });
    const all = await rows(tok.acme2!, byCategory);
    const seen = JSON.parse(tools[2]!) as { rows: Record<string, unknown>[] };
    expect(seen.rows).toEqual(canada);
    expect(seen.rows).not.toEqual(all);

    // Nothing secret, and not the viewer's filter values, in any prompt.
    const everything = JSON.stringify(sent.map((r) => r.body.messages.filter((m) => m.role !== "tool")));
    for (const secret of [API_KEY, ...Object.values(tok), ...sessions, t.adminToken]) expect(everything).not.toContain(secret);
    expect(everything).not.toContain('"CA"');
  });

  it("keeps each viewer's answer under their own row-level security, and caches it", async () => {
    useModel();
    double.requests.length = 0;
    expect((await answer(tok.globex!)).status).toBe(200);
    const seen = JSON.parse(
      String(
        double.requests
          .at(-1)!
          .body.messages.filter((m) => m.role === "tool")
          .at(-1)!.content,
      ),
    ) as { rows: unknown[] };
    expect(seen.rows).toEqual(await rows(tok.globex!, byCategory));
    expect(seen.rows).not.toEqual(await rows(tok.acme!, byCategory));
    // Asked again, the cached answer: no new request to the model.
    const before = double.requests.length;
    const again = (await (await answer(tok.globex!)).json()) as { markdown: string; stale: boolean };
    expect(again).toMatchObject({ markdown: "**Electronics** had the most revenue.", stale: false });
    expect(double.requests).toHaveLength(before);
  });

  it("writes the builtin summary for the viewer's current filters, in the viewer's language, saying which", async () => {
    useBuiltin();
    const en = (await (await answer(tok.acme!, { filterUrlParameters: [CANADA] })).json()) as { markdown: string; stale: boolean };
    expect(en.stale).toBe(false);
    expect(en.markdown.split("\n")[0]).toMatch(/^_For .*: Canada\._$/);
    // Other filters: not the answer above marked stale, but one for them.
    const all = (await (await answer(tok.acme!)).json()) as { markdown: string; stale: boolean };
    expect(all.stale).toBe(false);
    expect(all.markdown).not.toContain("Canada");
    const de = (await (await answer(tok.acme!, { filterUrlParameters: [CANADA], locale: "de-DE" })).json()) as { markdown: string };
    expect(de.markdown.split("\n")[0]).toMatch(/^_Für .*: Kanada\._$/);
    expect(de.markdown).toMatch(/führt mit|zuletzt/);
    expect(de.markdown).not.toMatch(/leads with|latest/);
    // The widget's question as the German dictionary has it, answered in German with German names and numbers.
    expect(de.markdown.split("\n")).toContain("**Welche Kategorie hatte im letzten Quartal den meisten Umsatz?**");
    expect(de.markdown).toMatch(/\*\*Elektronik\*\* liegt bei Umsatz vorn mit \*\*[\d.]+,\d\d\s\$\*\*/);
    expect(de.markdown).not.toContain("Electronics");
    // Periods named at their grain: the KPIs' latest quarter, the trend's latest month.
    expect(de.markdown).toMatch(/\*\*Umsatz\*\*: [\d.]+\s\$ \(Q2 2025\)/);
    expect(de.markdown).toMatch(/zuletzt [\d.]+\s\$ \(Juni 2025\)/);
  });

  it("reports a failing model server without caching anything, and keeps the last answer", async () => {
    useModel();
    const script = double.scripts.get(PROMPT)!;
    double.scripts.set(PROMPT, { kind: "status", status: 500, body: '{"error":{"message":"SECRET-WIDGET-500"}}' });
    try {
      const res = await answer(tok.globex!, { regenerate: true });
      expect(res.status).toBe(502);
      const text = await res.text();
      expect(text).toContain("status 500");
      expect(text).not.toContain("SECRET-WIDGET-500");
    } finally {
      double.scripts.set(PROMPT, script);
    }
    const kept = (await (await answer(tok.globex!)).json()) as { markdown: string };
    expect(kept.markdown).toBe("**Electronics** had the most revenue.");
  });
});
