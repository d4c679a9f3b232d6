import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SecurityContext } from "../../semantic/security-context";
import { createQueryEngine, type QueryEngine } from "../../semantic/query-engine";
import { acmeViewer, createDuckDbShop, globexViewer, type ShopEngine } from "../../semantic/test-support/shop-fixture";
import type { AnswerPart, TurnContext } from "../types";
import { explainAnswer, explainInputOf } from "./explain";
import { readQuestion } from "./question";
import { viewerIndexes } from "./viewer-indexes";
import type { Understanding } from "./understanding";
import type { ViewIndex } from "./view-index";

let shop: ShopEngine;
let engine: QueryEngine;
beforeAll(async () => {
  shop = await createDuckDbShop();
  engine = createQueryEngine({ model: shop.model, dataSource: shop.dataSource });
});
afterAll(() => shop?.cleanup());

const context = (securityContext: SecurityContext, members?: string[]): TurnContext => ({
  deploymentId: 1,
  engine,
  securityContext,
  locale: "en",
  allowAuthoring: false,
  signal: new AbortController().signal,
  queryTimeoutMs: 30_000,
  includeSql: false,
  ...(members ? { members } : {}),
});

/** Runs `explainAnswer` on a reading's understanding and keeps what it emits. */
async function explained(u: Understanding, ctx: TurnContext, indexes: ViewIndex[]): Promise<{ ok: boolean; parts: AnswerPart[] }> {
  const parts: AnswerPart[] = [];
  let seq = 0;
  const ok = await explainAnswer(
    u,
    ctx,
    indexes,
    (p) => parts.push(p),
    () => `p${seq++}`,
  );
  return { ok, parts };
}

/**
 * "Why did revenue fall in March 2024?" on the small shop (March against February 2024). By hand:
 * acme has no February orders and 10 + 20 + 30 in March; globex has 100 in February and 50 in March.
 */
describe("explainAnswer", () => {
  it.each<[string, SecurityContext, string[] | undefined, string | null, number]>([
    ["acme", acmeViewer, undefined, "Revenue: **$60.00**, against **$0.00** in the period before: **–** (+$60.00).", 60],
    ["globex", globexViewer, undefined, "Revenue: **$50.00**, against **$100.00** in the period before: **-50%** (-$50.00).", -50],
    ["acme, where the surface allows no revenue", acmeViewer, ["sales.count", "sales.created_at", "sales.status"], null, 0],
  ])("%s", async (_, viewer, members, said, change) => {
    const ctx = context(viewer, members);
    const { indexes } = await viewerIndexes(ctx);
    const reading = readQuestion("why did revenue fall in March 2024?", indexes, { locale: "en", reference: new Date("2024-11-01T00:00:00Z") });
    expect(reading).toMatchObject({ ok: true, understanding: { explain: true, measures: ["sales.revenue"] } });
    if (!reading.ok) return;
    const { ok, parts } = await explained(reading.understanding, ctx, indexes);
    const text = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    const table = parts.find((p) => p.type === "table");
    if (said === null) {
      expect([ok, text, table]).toEqual([false, "I could not answer that.", undefined]);
      return;
    }
    expect(ok).toBe(true);
    expect(text).toContain(said);
    // Each grouping's values add up to the total change.
    const rows = table?.type === "table" ? table.rows : [];
    const byDimension = new Map<string, number>();
    for (const r of rows) byDimension.set(String(r.dimension), (byDimension.get(String(r.dimension)) ?? 0) + Number(r.change));
    expect(byDimension.get("Status")).toBe(change);
  });

  /**
   * "Why is revenue in Germany lower than in the US?": DE against US, all time. By hand (acme):
   * DE 10 + 20 + 7 = 37, all completed; US 30 shipped + 40 + 5 completed + 6 without a status = 81.
   * By status: completed 45 → 37 (−8), shipped −30, none −6; by category: apparel −30, tools −23,
   * toys +9. Country and city (the same customers) are not candidates.
   */
  it("explains one value's figure against another's: Germany against the US", async () => {
    const ctx = context(acmeViewer);
    const { indexes } = await viewerIndexes(ctx);
    const reading = readQuestion("Why is revenue in Germany lower than in the US?", indexes, { locale: "en", reference: new Date("2024-11-01T00:00:00Z") });
    expect(reading).toMatchObject({
      ok: true,
      understanding: { explain: true, segments: { member: "sales.customers_country", current: "DE", baseline: "US" } },
    });
    if (!reading.ok) return;
    const index = indexes.find((i) => i.source.name === "sales")!;
    const input = explainInputOf(reading.understanding, index);
    expect(input.candidates).not.toContain("sales.customers_country");
    expect(input.candidates).not.toContain("sales.customers_city");
    const { ok, parts } = await explained(reading.understanding, ctx, indexes);
    expect(ok).toBe(true);
    const text = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    expect(text).toContain("Revenue in **DE**: **$37.00**, against **$81.00** in **US**: **-54.3%** (-$44.00).");
    const table = parts.find((p) => p.type === "table");
    const rows = table?.type === "table" ? table.rows.map((r) => [r.dimension, r.value, r.change]) : [];
    expect(rows).toEqual([
      ["Status", "shipped", -30],
      ["Category", "apparel", -30],
      ["Category", "tools", -23],
      ["Category", "toys", 9],
      ["Status", "completed", -8],
      ["Status", null, -6],
    ]);
  });

  it("names the table's values by their labels, as the text does (a value without one stays as it is)", async () => {
    const labels: Record<string, string> = { shipped: "Versandt", completed: "Abgeschlossen", apparel: "Bekleidung" };
    const ctx = { ...context(acmeViewer), valueLabel: (_member: string, value: unknown) => labels[String(value)] };
    const { indexes } = await viewerIndexes(ctx);
    const reading = readQuestion("Why is revenue in Germany lower than in the US?", indexes, { locale: "en", reference: new Date("2024-11-01T00:00:00Z") });
    if (!reading.ok) throw new Error("not read");
    const { parts } = await explained(reading.understanding, ctx, indexes);
    const table = parts.find((p) => p.type === "table");
    const rows = table?.type === "table" ? table.rows.map((r) => [r.dimension, r.value]) : [];
    expect(rows).toEqual([
      ["Status", "Versandt"],
      ["Category", "Bekleidung"],
      ["Category", "tools"],
      ["Category", "toys"],
      ["Status", "Abgeschlossen"],
      ["Status", null],
    ]);
  });

  it("explains two values within a period: the period is a filter both sides share", async () => {
    const ctx = context(acmeViewer);
    const { indexes } = await viewerIndexes(ctx);
    const reading = readQuestion("Warum ist der Umsatz 2024 in Deutschland niedriger als in den USA?", indexes, {
      locale: "de",
      reference: new Date("2024-11-01T00:00:00Z"),
    });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    const input = explainInputOf(
      reading.understanding,
      indexes.find((i) => i.source.name === "sales")!,
    );
    expect(input.filters).toEqual([{ member: "sales.created_at", operator: "inDateRange", values: ["2024-01-01", "2024-12-31"] }]);
    const { parts } = await explained(reading.understanding, ctx, indexes);
    // 2024: DE 10 + 20 = 30 against the US's 81.
    expect(parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("")).toContain(
      "Revenue bei **DE**: **30,00\u00a0$**, gegenüber **81,00\u00a0$** bei **US**",
    );
  });
});
