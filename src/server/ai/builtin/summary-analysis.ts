/**
 * The written answer of an analysis: two periods side by side, each row's share, a running
 * total, the first rows within each group, and the values that moved a change most.
 */
import type { ExplainResult } from "../../../schema/semantic-query";
import { SAY } from "../builtin-language";
import { formatPeriod, formatValue, shownValue, signedNumber, signedPercent, titleOf, type ValueLabel } from "./format";
import type { Understanding } from "./understanding";
import type { ViewIndex } from "./view-index";

type Row = Record<string, unknown>;
type Column = { key: string; title: string; format?: string };

const finite = (v: unknown) => v !== null && v !== undefined && Number.isFinite(Number(v));

/** Whether an understanding's answer is written here rather than by `summarize`. */
export const isAnalysis = (u: Understanding) =>
  u.periods !== undefined || (u.calculation !== undefined && u.calculation !== "rank") || u.perGroup !== undefined;

/** The sentence of an analysis answer, from its rows. */
export function summarizeAnalysis(u: Understanding, rows: Row[], columns: Column[], valueLabel?: ValueLabel): string {
  const say = SAY[u.language];
  const m = u.measures[0]!;
  const mcol = columns.find((c) => c.key === m || c.key === `${m}.current`);
  const mTitle = columns.find((c) => c.key === m)?.title ?? mcol?.title.replace(/\s*\(.*\)$/, "") ?? m;
  const fmt = (v: unknown) => formatValue(u.language, v, columns.find((c) => c.key === m)?.format ?? mcol?.format);
  const pct = (v: unknown) => (finite(v) ? signedPercent(u.language).format(Number(v)) : "–");
  const label = (r: Row) => u.dimensions.map((d) => shownValue(valueLabel, d, r[d])).join(" · ");
  if (u.periods) {
    const [baseline, current, change, relative] = ["baseline", "current", "change", "relativeChange"].map((o) => `${m}.${o}`) as [
      string,
      string,
      string,
      string,
    ];
    if (!u.dimensions.length) {
      const r = rows[0]!;
      return say.against(mTitle, fmt(r[current]), fmt(r[baseline]), pct(r[relative]), signedNumber(u.language, mcol?.format).format(Number(r[change])));
    }
    const moved = rows.filter((r) => finite(r[relative]));
    const byChange = [...moved].sort((a, b) => Number(b[relative]) - Number(a[relative]));
    const best = byChange[0] ?? rows[0]!;
    let text = say.grewMost(mTitle, label(best), pct(best[relative])) + say.fromTo(fmt(best[baseline]), fmt(best[current]));
    const worst = byChange[byChange.length - 1];
    if (worst && worst !== best && Number(worst[relative]) < 0) text += `; ${say.fellMost(label(worst), pct(worst[relative]))}`;
    return `${text}. ${say.rows(rows.length)}`;
  }
  if (u.perGroup) {
    const within = u.perGroup.within;
    const ranked = u.dimensions.filter((d) => !within.includes(d));
    const shown = rows
      .slice(0, 6)
      .map(
        (r) =>
          `${within.map((w) => shownValue(valueLabel, w, r[w])).join(" · ")}: **${ranked.map((d) => shownValue(valueLabel, d, r[d])).join(" · ")}** (${fmt(r[m])})`,
      );
    return `${say.eachTop(mTitle, within.map((w) => columns.find((c) => c.key === w)?.title ?? w).join(" · "))} ${shown.join(", ")}. ${say.rows(rows.length)}`;
  }
  if (u.calculation === "runningTotal" && u.time?.granularity) {
    const last = rows[rows.length - 1]!;
    const key = `${u.time.dimension}.${u.time.granularity}`;
    return `${say.reached(mTitle, fmt(last[`${m}.runningTotal`]), formatPeriod(u.language, last[key], u.time.granularity))} ${say.rows(rows.length)}`;
  }
  const share = (v: unknown) => (finite(v) ? formatValue(u.language, v, "percent") : "–");
  const [first, ...rest] = [...rows].sort((a, b) => Number(b[m]) - Number(a[m]));
  let text = say.leads(mTitle, label(first!), fmt(first![m])) + say.share(share(first![`${m}.percentOfTotal`]));
  if (rest.length)
    text += `, ${say.then} ${rest
      .slice(0, 2)
      .map((r) => `${label(r)} (${share(r[`${m}.percentOfTotal`])})`)
      .join(", ")}`;
  return `${text}. ${say.rows(rows.length)}`;
}

/**
 * "share of revenue by country for DE and FR": each value's share of the whole and its figure,
 * from the one row of the ratio's fields (a share, then the figure, per value).
 */
export function summarizeShares(u: Understanding, row: Row, columns: Column[], valueLabel?: ValueLabel): string {
  const r = u.ratio;
  if (!r?.each) return "";
  const each = r.each;
  const say = SAY[u.language];
  const mTitle = r.title ?? r.measure;
  const items = each.values.map((value, i) => {
    const [share, figure] = [u.measures[2 * i]!, u.measures[2 * i + 1]!];
    const format = columns.find((c) => c.key === figure)?.format;
    return `**${shownValue(valueLabel, each.member, value)}** **${formatValue(u.language, row[share], "percent")}** (${formatValue(u.language, row[figure], format)})`;
  });
  return say.sharesOfWhole(mTitle, items.join(", "));
}

/** "why did revenue fall": the change of the total, then the values that moved it most. */
export function summarizeExplanation(u: Understanding, result: ExplainResult, indexes: ViewIndex[], format?: string, valueLabel?: ValueLabel): string {
  const say = SAY[u.language];
  const fmt = (v: number) => formatValue(u.language, v, format);
  const signed = (v: number) => signedNumber(u.language, format).format(v);
  const pct = (v: number | null) => (v === null ? "–" : signedPercent(u.language).format(v));
  const t = result.total;
  const m = titleOf(indexes, result.measure);
  const seg = u.segments;
  const side = (v: string) => (seg ? shownValue(valueLabel, seg.member, v) : v);
  let text = seg
    ? say.againstSide(m, side(seg.current), fmt(t.current), side(seg.baseline), fmt(t.baseline), pct(t.relativeChange), signed(t.change))
    : say.against(m, fmt(t.current), fmt(t.baseline), pct(t.relativeChange), signed(t.change));
  const top = result.contributors.slice(0, 3);
  if (top.length) {
    const share = (v: number | null) => (v === null ? "" : `, ${say.ofChange(formatValue(u.language, v, "percent"))}`);
    text += ` ${seg ? say.difference : say.contributors} ${top.map((c) => `**${shownValue(valueLabel, c.dimension, c.value)}** (${titleOf(indexes, c.dimension)}) ${signed(c.change)}${share(c.share)}`).join("; ")}.`;
  }
  return text;
}
