import { describe, expect, it } from "vitest";
import { parse, View } from "vega";
import { compile } from "vega-lite";
import { buildVegaConfig } from "./vega-theme";

const palette = { scheme: "light", primary: "#4f46e5", text: "#111827", mutedText: "#6b7280", grid: "#e5e7eb", font: "sans-serif" } as const;

/** The y axis labels of a bar chart of these values, drawn by vega with the embed's config. */
async function yLabels(values: number[], format?: string): Promise<string[]> {
  const spec = compile({
    data: { values: values.map((v, i) => ({ k: `c${i}`, v })) },
    mark: "bar",
    encoding: { x: { field: "k", type: "nominal" }, y: { field: "v", type: "quantitative", ...(format ? { axis: { format } } : {}) } },
    config: buildVegaConfig(palette) as never,
  }).spec;
  const view = new View(parse(spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  const axis = svg.slice(svg.indexOf('aria-label="Y-axis'));
  return [...axis.slice(0, axis.indexOf("</g></g></g>")).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
}

describe("compact axis labels", () => {
  it("writes every label of an axis in one style: 5K beside 10K, never 5,000", async () => {
    const labels = await yLabels([3_000, 12_000, 25_000]);
    expect(labels).toContain("5K");
    expect(labels).toContain("10K");
    expect(labels.some((l) => /\d,\d{3}/.test(l))).toBe(false);
  });

  it("leaves values under a thousand as they are, and writes millions with M", async () => {
    expect(await yLabels([120, 480, 900])).toContain("500");
    expect((await yLabels([1_200_000, 2_500_000])).some((l) => /^\d(\.\d)?M$/.test(l))).toBe(true);
  });

  it("keeps what the axis's format puts around the figure: money's sign, and the minus of a loss", async () => {
    const money = await yLabels([-2_000_000, 1_500_000], "$,~f");
    expect(money).toContain("$0");
    expect(money).toContain("$1M");
    expect(money.some((l) => /^[-−]\$\d(\.\d)?M$/.test(l))).toBe(true);
    expect(money.filter((l) => /\d/.test(l)).every((l) => l.includes("$"))).toBe(true);
    expect(await yLabels([3_000, 12_000], "$,~f")).toContain("$10K");
  });
});
