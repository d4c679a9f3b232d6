import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createQueryEngine } from "../semantic/query-engine";
import { acmeViewer, createDuckDbShop, globexViewer, type ShopEngine } from "../semantic/test-support/shop-fixture";
import { membersOf, runTool, toolDefinitions, type ToolState } from "./tools";
import type { TurnContext } from "./types";

/**
 * What a model may ask through the tools beyond plain queries: compare, calculations, a per-group
 * limit, between, an explanation of a change (run_query with explain) — all semantic, never SQL, under the viewer's row-level
 * security. Figures by hand from shop-fixture.ts (see compare-ranges.test.ts and explain.test.ts):
 * acme's revenue Q1 2023 → Q1 2024 is tools 7 → 50, apparel 0 → 30, toys 0 → 20.
 */
describe("AI tools over the deeper query contract", () => {
  let shop: ShopEngine;
  beforeAll(async () => {
    shop = await createDuckDbShop();
  });
  afterAll(() => shop?.cleanup());

  const context = (overrides: Partial<TurnContext> = {}): TurnContext => ({
    deploymentId: 1,
    engine: createQueryEngine({ model: shop.model, dataSource: shop.dataSource }),
    securityContext: acmeViewer,
    locale: "en",
    allowAuthoring: false,
    signal: new AbortController().signal,
    queryTimeoutMs: 10_000,
    includeSql: false,
    ...overrides,
  });
  const Q1_2023 = ["2023-01-01", "2023-03-31"];
  const Q1_2024 = ["2024-01-01", "2024-03-31"];

  it("offers compare, calculations, groupLimit and explain to a model through run_query", () => {
    const defs = toolDefinitions(false);
    const runQuery = defs.find((d) => d.name === "run_query")!;
    const query = (runQuery.parameters as { properties: { query: { $defs: { SemanticQuery: { properties: Record<string, unknown> } } } } }).properties.query;
    expect(Object.keys(query.$defs.SemanticQuery.properties)).toEqual(expect.arrayContaining(["compare", "calculations", "groupLimit"]));
    expect(runQuery.description).toMatch(/between/);
    expect(defs.map((d) => d.name)).toEqual(["list_views", "describe_view", "run_query", "render_chart"]);
    const parameters = runQuery.parameters as { properties: Record<string, { $defs: Record<string, { required: string[] }> }> };
    expect(parameters.properties.explain!.$defs.ExplainInput!.required).toEqual(expect.arrayContaining(["measure", "baseline", "current", "candidates"]));
    expect(runQuery.description).toMatch(/two segments/);
  });

  it("works out what a turn may query for each scope of one viewer, not once per viewer", async () => {
    // One engine and one security context: only the members allowed differ.
    const engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
    const byCategory = { query: { measures: ["sales.revenue"], dimensions: ["sales.products_category"] } };
    const ask = (members?: string[]) => runTool("run_query", byCategory, context({ engine, ...(members ? { members } : {}) }), {});
    expect((await ask()).ok).toBe(true);
    const narrowed = await ask(["sales.revenue"]);
    expect(narrowed.ok).toBe(false);
    expect(narrowed.summary).toMatch(/not allowed members: sales\.products_category/);
    expect((await ask()).ok).toBe(true);
  });

  it("runs a compare query with a rank over the change, and shows its columns with titles", async () => {
    const state: ToolState = {};
    const outcome = await runTool(
      "run_query",
      {
        query: {
          measures: ["sales.revenue"],
          dimensions: ["sales.products_category"],
          compare: { dimension: "sales.created_at", baseline: Q1_2023, current: Q1_2024 },
          calculations: [{ type: "rank", measure: "sales.revenue.change" }],
          order: [["sales.revenue.change.rank", "asc"]],
        },
      },
      context(),
      state,
    );
    expect(outcome.ok, outcome.summary).toBe(true);
    expect(
      state.lastRows!.map((r) => [r["sales.products_category"], r["sales.revenue.baseline"], r["sales.revenue.current"], r["sales.revenue.change.rank"]]),
    ).toEqual([
      ["tools", 7, 50, 1],
      ["apparel", 0, 30, 2],
      ["toys", 0, 20, 3],
    ]);
    expect(state.lastColumns!.map((c) => c.key)).toEqual([
      "sales.products_category",
      "sales.revenue.baseline",
      "sales.revenue.current",
      "sales.revenue.change",
      "sales.revenue.relativeChange",
      "sales.revenue.change.rank",
    ]);
    expect(state.lastColumns!.find((c) => c.key === "sales.revenue.relativeChange")).toMatchObject({ format: "percent", output: "relativeChange" });
    expect(state.lastColumns!.find((c) => c.key === "sales.revenue.change")).toMatchObject({ output: "change" });
  });

  it("runs calculated fields, and refuses a formula that names a member outside the surface's scope", async () => {
    const fields = [{ name: "per_order", formula: "revenue / count", format: "currency" as const }];
    const query = { measures: ["sales.revenue", "sales.count", "sales.per_order"], calculatedFields: fields };
    const state: ToolState = {};
    const outcome = await runTool("run_query", { query }, context(), state);
    expect(outcome.ok, outcome.summary).toBe(true);
    const [row] = state.lastRows!;
    expect(row!["sales.per_order"]).toBeCloseTo(Number(row!["sales.revenue"]) / Number(row!["sales.count"]), 9);
    expect(Number(row!["sales.count"])).toBeGreaterThan(0);
    // A surface allowed revenue and count only: the formula may use them, not amount or status behind them.
    const scoped = context({ members: ["sales.revenue", "sales.count"] });
    expect(await runTool("run_query", { query: { measures: ["sales.per_order"], calculatedFields: fields } }, scoped, {})).toMatchObject({ ok: true });
    const hidden = await runTool(
      "run_query",
      { query: { measures: ["sales.revenue"], calculatedFields: [{ name: "share", formula: "count(where status = 'returned') / sum(amount)" }] } },
      scoped,
      {},
    );
    expect(hidden).toMatchObject({ ok: false, summary: expect.stringContaining("sales.status") });
  });

  it("keeps the top row of each group and filters with between", async () => {
    const state: ToolState = {};
    // acme, amounts between 10 and 40 (#1–#4): tools DE 10, US 40; toys DE 20; apparel US 30. Top country by revenue per category.
    const outcome = await runTool(
      "run_query",
      {
        query: {
          measures: ["sales.revenue"],
          dimensions: ["sales.products_category", "sales.customers_country"],
          filters: [{ member: "sales.amount", operator: "between", values: [10, 40] }],
          groupLimit: { within: ["sales.products_category"], limit: 1 },
          order: [["sales.products_category", "asc"]],
        },
      },
      context(),
      state,
    );
    expect(outcome.ok, outcome.summary).toBe(true);
    expect(state.lastRows!.map((r) => [r["sales.products_category"], r["sales.customers_country"], r["sales.revenue"]])).toEqual([
      ["apparel", "US", 30],
      ["tools", "US", 40],
      ["toys", "DE", 20],
    ]);
  });

  it("explains a change for the viewer's rows only, as a table render_chart can draw", async () => {
    const args = { measure: "sales.revenue", timeDimension: "sales.created_at", baseline: Q1_2023, current: Q1_2024, candidates: ["sales.products_category"] };
    const state: ToolState = {};
    const outcome = await runTool("run_query", JSON.stringify({ explain: args }), context(), state);
    expect(outcome.ok, outcome.summary).toBe(true);
    expect(JSON.parse(outcome.content).total).toMatchObject({ baseline: 7, current: 100, change: 93 });
    expect(state.lastRows!.map((r) => [r.value, r.change])).toEqual([
      ["tools", 43],
      ["apparel", 30],
      ["toys", 20],
    ]);
    const chart = await runTool("render_chart", { type: "bar", x: "value", y: ["change"] }, context(), state);
    expect(chart.ok).toBe(true);
    // Dimensions by their titles, the figures in the measure's format, the columns in the viewer's language.
    expect(state.lastRows![0]!.dimension).toBe("Category");
    expect(state.lastColumns!.find((c) => c.key === "change")).toMatchObject({ title: "Change", format: "currency", output: "change" });
    const de: ToolState = {};
    await runTool("run_query", { explain: args }, context({ locale: "de-AT" }), de);
    expect(de.lastColumns!.map((c) => c.title)).toEqual(["Dimension", "Wert", "Vorher", "Nachher", "Veränderung", "Anteil an der Veränderung"]);
    // globex: toys +100, apparel +50, tools −30; nothing of acme's.
    const g: ToolState = {};
    await runTool("run_query", { explain: args }, context({ securityContext: globexViewer }), g);
    expect(g.lastRows!.map((r) => [r.value, r.change])).toEqual([
      ["toys", 100],
      ["apparel", 50],
      ["tools", -30],
    ]);
  });

  it("explains the difference between two segments, and refuses a segment's member outside the surface's scope", async () => {
    const country = (v: string) => ({ filters: [{ member: "sales.customers_country", operator: "equals", values: [v] }] });
    const args = { measure: "sales.revenue", baseline: country("US"), current: country("DE"), candidates: ["sales.products_category"] };
    const state: ToolState = {};
    const outcome = await runTool("run_query", { explain: args }, context(), state);
    expect(outcome.ok, outcome.summary).toBe(true);
    // acme: DE 37 against US 81; apparel −30, tools −23, toys +9 (explain-segments.test.ts).
    expect(JSON.parse(outcome.content).total).toMatchObject({ baseline: 81, current: 37, change: -44 });
    expect(state.lastRows!.map((r) => [r.value, r.change])).toEqual([
      ["apparel", -30],
      ["tools", -23],
      ["toys", 9],
    ]);
    const scoped = context({ members: ["sales.revenue", "sales.products_category"] });
    const outside = await runTool("run_query", { explain: args }, scoped, {});
    expect(outside).toMatchObject({ ok: false, summary: expect.stringContaining("sales.customers_country") });
  });

  it("refuses members outside the surface's scope, SQL, and bad input, as messages the model can read", async () => {
    const scoped = context({ members: ["sales.revenue", "sales.created_at"] });
    const args = { measure: "sales.revenue", timeDimension: "sales.created_at", baseline: Q1_2023, current: Q1_2024, candidates: ["sales.products_category"] };
    const outside = await runTool("run_query", { explain: args }, scoped, {});
    expect(outside).toMatchObject({ ok: false, summary: expect.stringContaining("sales.products_category") });
    const sql = await runTool("run_query", { sql: "SELECT 1" }, context(), {});
    expect(sql).toMatchObject({ ok: false, summary: expect.stringContaining("SQL is never accepted") });
    const bad = await runTool("run_query", { explain: { ...args, measure: "sales.avg_amount" } }, context(), {});
    expect(bad).toMatchObject({ ok: false, summary: expect.stringContaining("count or a sum") });
    const both = await runTool("run_query", { explain: args, query: { measures: ["sales.revenue"] } }, context(), {});
    expect(both).toMatchObject({ ok: false, summary: expect.stringContaining("Invalid arguments") });
    const hiddenCompare = await runTool(
      "run_query",
      { query: { measures: ["sales.revenue"], compare: { dimension: "sales.created_at", baseline: Q1_2023, current: Q1_2024 } } },
      context({ members: ["sales.revenue"] }),
      {},
    );
    expect(hiddenCompare).toMatchObject({ ok: false, summary: expect.stringContaining("sales.created_at") });
  });

  it("still refuses what the builtin engine's own arguments would slip past: the scope and the engine's validation hold", async () => {
    const built = { built: true };
    // A member outside the surface's scope: refused before the engine.
    const outside = await runTool(
      "run_query",
      { query: { measures: ["sales.revenue"], dimensions: ["sales.products_category"] } },
      context({ members: ["sales.revenue"] }),
      {},
      built,
    );
    expect(outside).toMatchObject({ ok: false, summary: expect.stringContaining("sales.products_category") });
    // A query the shape check would have refused (a limit past the cap, a filter without values):
    // the engine refuses it as it runs, as a message, never an exception.
    const limit = await runTool("run_query", { query: { measures: ["sales.revenue"], limit: 10_000_000 } }, context(), {}, built);
    expect(limit).toMatchObject({ ok: false, summary: expect.stringContaining("limit") });
    const filter = await runTool(
      "run_query",
      { query: { measures: ["sales.revenue"], filters: [{ member: "sales.status", operator: "equals" }] } },
      context(),
      {},
      built,
    );
    expect(filter.ok).toBe(false);
    // And the rows are still only the viewer's.
    const state: ToolState = {};
    expect(await runTool("run_query", { query: { measures: ["sales.revenue"] } }, context(), state, built)).toMatchObject({ ok: true });
    const acme = state.lastRows;
    const other: ToolState = {};
    await runTool("run_query", { query: { measures: ["sales.revenue"] } }, context({ securityContext: globexViewer }), other, built);
    expect(other.lastRows).not.toEqual(acme);
  });

  it("names the members behind compare columns, calculations and group limits", () => {
    expect(
      membersOf({
        measures: ["sales.revenue"],
        dimensions: ["sales.products_category"],
        timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }],
        compare: { dimension: "sales.created_at", baseline: "last year", current: "this year" },
        calculations: [{ type: "rank", measure: "sales.revenue.change", within: ["sales.created_at.dayOfWeek"], name: "growth_rank" }],
        groupLimit: { within: ["sales.products_category"], limit: 1, order: [["sales.revenue.current", "desc"]] },
        order: [["growth_rank", "asc"]],
      }).sort(),
    ).toEqual(
      [
        "sales.revenue",
        "sales.products_category",
        "sales.created_at",
        "sales.created_at",
        "sales.revenue",
        "sales.created_at",
        "sales.products_category",
        "sales.revenue",
      ].sort(),
    );
  });
});
