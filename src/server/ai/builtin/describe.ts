/** "I read this as: …": what the engine understood, in the question's language. */
import { GRAIN_NAMES, PART_NAMES, SAY } from "../builtin-language";
import { periodLabel } from "../../semantic/column-labels";
import { addToWallTime, formatWallTime } from "../../semantic/date-range";
import { dateFormat, formatValue, listJoin, shownValue, titleOf, type ValueLabel } from "./format";
import type { Condition, Understanding } from "./understanding";
import type { ViewIndex } from "./view-index";

const OPERATOR_SIGNS = { gt: ">", gte: "≥", lt: "<", lte: "≤" } as const;

/** "I read this as: …" in the question's language; values named by their labels (`valueLabel`). */
export function describeUnderstanding(u: Understanding, indexes: ViewIndex[], reference: Date, valueLabel?: ValueLabel): string {
  const say = SAY[u.language];
  const field = (n: string) => u.fields?.find((f) => `${u.view}.${f.name}` === n)?.title;
  const t = (n: string) => field(n) ?? titleOf(indexes, n);
  const values = (member: string, list: readonly unknown[]) => list.map((v) => shownValue(valueLabel, member, v)).join(" / ");
  const each = u.ratio?.each;
  // "share of revenue by country for DE and FR": the measure, and whose shares of the whole.
  const parts = each
    ? [`**${t(u.ratio!.measure)}**`, say.shareOfWholeFor(`${t(each.member)} = ${values(each.member, each.values)}`)]
    : [`**${listJoin(u.language, u.measures.map(t))}**${u.defaultMeasure ? ` ${say.defaultMeasure(t(u.measures[0]!))}` : ""}`];
  if (u.dimensions.length) parts.push(`${say.groupedBy} ${listJoin(u.language, u.dimensions.map(t))}`);
  if (u.time?.part) parts.push(`${say.groupedBy} ${PART_NAMES[u.language][u.time.part]}`);
  if (u.time?.granularity) parts.push(say.overTime(GRAIN_NAMES[u.language][u.time.granularity] ?? u.time.granularity));
  for (const f of u.filters) parts.push(`${say.filteredBy} ${t(f.member)} ${f.exclude ? "≠" : "="} ${values(f.member, f.values)}`);
  const num = (v: number) => formatValue(u.language, v, undefined);
  const condition = (c: Condition) =>
    `${t(c.member)} ${c.operator === "between" ? `${num(c.value)} – ${num(c.high!)}` : `${OPERATOR_SIGNS[c.operator]} ${num(c.value)}`}`;
  for (const c of u.conditions ?? []) parts.push(`${say.filteredBy} ${condition(c)}`);
  // "(Country = DE and Quantity > 3) or Amount > 500"
  for (const group of u.anyOf ?? []) {
    const alternatives = group.map((a) => {
      const terms = [...a.filters.map((f) => `${t(f.member)} = ${values(f.member, f.values)}`), ...a.conditions.map(condition)];
      return terms.length > 1 && group.length > 1 ? `(${listJoin(u.language, terms)})` : listJoin(u.language, terms);
    });
    parts.push(`${say.filteredBy} ${alternatives.join(` ${say.or} `)}`);
  }
  // A whole year, quarter or month by its name ("Q1 2025"), else its first and last day.
  const range = (r: { from: string; to: string }) => periodLabel(u.language, { from: `${r.from}T00:00:00.000`, to: dayAfter(r.to) });
  if (u.time?.range) parts.push(`${say.period} ${t(u.time.dimension)}: ${range(u.time.range)}`);
  if (u.periods) {
    parts.push(`${say.period} ${t(u.periods.dimension)}: ${say.periods(range(u.periods.baseline), range(u.periods.current))}`);
  }
  if (u.calculation) parts.push(u.calculation === "percentOfTotal" ? say.shareOfTotal : u.calculation === "rank" ? say.ranked : say.runningTotal);
  if (u.perGroup) parts.push(say.perGroup(u.perGroup.limit, listJoin(u.language, u.perGroup.within.map(t))));
  // "Country: DE against FR"
  if (u.segments)
    parts.push(
      `${t(u.segments.member)}: ${say.periods(shownValue(valueLabel, u.segments.member, u.segments.baseline), shownValue(valueLabel, u.segments.member, u.segments.current))}`,
    );
  if (u.explain) parts.push(say.explained);
  if (u.limit) parts.push(u.direction === "asc" ? say.bottom(u.limit) : say.top(u.limit));
  if (u.compare) parts.push(u.compare.toDate ? say.comparedToDate(u.compare.unit, u.compare.amount) : say.compared(u.compare.unit, u.compare.amount));
  if (u.rankByChange) parts.push(u.rankByChange.direction === "asc" ? say.bottomByChange(u.rankByChange.limit) : say.topByChange(u.rankByChange.limit));
  let text = `${say.understood}: ${parts.join(", ")}.`;
  if (u.time?.range && startOfDay(reference) < startOfDay(new Date())) {
    text += ` (${say.relativeTo(dateFormat(u.language).format(new Date(reference.getTime() - 86_400_000)))})`;
  }
  if (u.ignored.length) text += ` ${say.ignored}: “${u.ignored.join(" ")}”.`;
  return text;
}

const startOfDay = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());

/** The wall time at the start of the day after `day` ("2025-03-31" → "2025-04-01T00:00:00.000"): a range's exclusive end. */
const dayAfter = (day: string) => formatWallTime(addToWallTime(new Date(`${day}T00:00:00Z`), 1, "day"));
