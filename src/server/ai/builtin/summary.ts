/** The answer's sentences: what its rows say (the total, the leaders, the peak, the change). */
import { GRAIN_NAMES, SAY } from "../builtin-language";
import { timePartLabel } from "../../../schema/time-part-labels";
import { formatPeriod, formatValue, shownValue, signedNumber, signedPercent, type ValueLabel } from "./format";
import { isAnalysis, summarizeAnalysis, summarizeShares } from "./summary-analysis";
import { comparisonColumns, type Understanding } from "./understanding";

/**
 * A short written answer from the rows: the total, the leaders, or the peak of a series. Dimension
 * values by their labels in the answer's language (`valueLabel`: the dictionary's, a country's name).
 */
export function summarize(
  u: Understanding,
  rows: Record<string, unknown>[],
  columns: { key: string; title: string; format?: string }[],
  valueLabel?: ValueLabel,
): string {
  const say = SAY[u.language];
  if (rows.length === 0) return say.noRows;
  if (isAnalysis(u)) return summarizeAnalysis(u, rows, columns, valueLabel);
  const cols = comparisonColumns(u);
  if (cols) return summarizeGrowth(u, rows, columns, cols, valueLabel);
  const measure = u.measures[0]!;
  const mcol = columns.find((c) => c.key === measure);
  const mTitle = mcol?.title ?? measure;
  const fmt = (v: unknown) => formatValue(u.language, v, mcol?.format);
  const timeKey = u.time?.granularity ? `${u.time.dimension}.${u.time.granularity}` : null;
  const partKey = u.time?.part ? `${u.time.dimension}.${u.time.part}` : null;
  if (partKey && !timeKey && !u.dimensions.length) {
    // By weekday, hour or month of the year: the busiest and the quietest, named in the question's language.
    const part = u.time!.part!;
    const name = (r: Record<string, unknown>) => timePartLabel(u.language, part, Number(r[partKey]));
    const sorted = [...rows].sort((a, b) => Number(b[measure]) - Number(a[measure]));
    const top = sorted[0]!;
    const low = sorted[sorted.length - 1]!;
    // The leader opens the sentence: "**Lunes** encabeza …", though Spanish weekdays are written small.
    const leader = name(top);
    let text = say.leads(mTitle, leader.charAt(0).toUpperCase() + leader.slice(1), fmt(top[measure]));
    if (rows.length > 1) text += `; ${say.low(name(low), fmt(low[measure]))}`;
    return `${text}. ${say.rows(rows.length)}`;
  }
  if (u.ratio?.each) return summarizeShares(u, rows[0]!, columns, valueLabel);
  if (!u.dimensions.length && !timeKey) {
    return u.measures
      .map((m) => say.total(columns.find((c) => c.key === m)?.title ?? m, formatValue(u.language, rows[0]![m], columns.find((c) => c.key === m)?.format)))
      .join(" ");
  }
  if (timeKey && !u.dimensions.length && u.limit === 1 && u.direction !== "asc") {
    // "the busiest month": one period, said as a sentence.
    const top = rows[0]!;
    return say.busiest(
      GRAIN_NAMES[u.language][u.time!.granularity!] ?? u.time!.granularity!,
      formatPeriod(u.language, top[timeKey], u.time!.granularity),
      mTitle,
      fmt(top[measure]),
    );
  }
  if (timeKey && !u.dimensions.length) {
    const sorted = [...rows].sort((a, b) => Number(b[measure]) - Number(a[measure]));
    const top = sorted[0]!;
    const low = sorted[sorted.length - 1]!;
    const sum = rows.reduce((s, r) => s + (Number(r[measure]) || 0), 0);
    const additive = mcol?.format !== "percent" && !/average|rate/i.test(measure);
    let text = `${say.peak(mTitle, formatPeriod(u.language, top[timeKey], u.time!.granularity), fmt(top[measure]))}`;
    if (rows.length > 1) text += `; ${say.low(formatPeriod(u.language, low[timeKey], u.time!.granularity), fmt(low[measure]))}`;
    text += ".";
    if (additive) text += ` ${say.total(mTitle, fmt(sum))}`;
    return `${text} ${say.rows(rows.length)}`;
  }
  const dim = u.dimensions[0]!;
  const label = (r: Record<string, unknown>) => u.dimensions.map((d) => shownValue(valueLabel, d, r[d])).join(" · ");
  const sorted = u.direction === "asc" ? rows : [...rows].sort((a, b) => Number(b[measure]) - Number(a[measure]));
  const [first, ...rest] = sorted;
  let text = say.leads(mTitle, label(first!), fmt(first![measure]));
  if (rest.length)
    text += `, ${say.then} ${rest
      .slice(0, 2)
      .map((r) => `${label(r)} (${fmt(r[measure])})`)
      .join(", ")}`;
  void dim;
  return `${text}. ${say.rows(rows.length)}`;
}

/** Growth and period over period: the biggest rise and fall, or the period against the one before. */
function summarizeGrowth(
  u: Understanding,
  rows: Record<string, unknown>[],
  columns: { key: string; title: string; format?: string }[],
  cols: { previous: string; change: string; percent: string },
  valueLabel?: ValueLabel,
): string {
  const say = SAY[u.language];
  const measure = u.measures[0]!;
  const mcol = columns.find((c) => c.key === measure);
  const mTitle = mcol?.title ?? measure;
  const fmt = (v: unknown) => formatValue(u.language, v, mcol?.format);
  const pct = (v: unknown) => signedPercent(u.language).format(Number(v));
  const signed = (v: unknown) => (Number.isFinite(Number(v)) ? signedNumber(u.language, mcol?.format).format(Number(v)) : "–");
  const timeKey = `${u.time!.dimension}.${u.time!.granularity}`;
  const when = (r: Record<string, unknown>) => formatPeriod(u.language, r[timeKey], u.time!.granularity);
  const compared = rows.filter((r) => r[cols.percent] !== null && r[cols.percent] !== undefined && Number.isFinite(Number(r[cols.percent])));
  if (compared.length === 0) return `${say.noEarlier(mTitle)} ${say.rows(rows.length)}`;
  const byChange = [...compared].sort((a, b) => Number(b[cols.percent]) - Number(a[cols.percent]));
  if (u.dimensions.length) {
    const label = (r: Record<string, unknown>) => u.dimensions.map((d) => shownValue(valueLabel, d, r[d])).join(" · ");
    const best = byChange[0]!;
    const worst = byChange[byChange.length - 1]!;
    let text = say.grewMost(mTitle, label(best), pct(best[cols.percent]));
    if (byChange.length > 1) text += `; ${say.grewLeast(label(worst), pct(worst[cols.percent]))}`;
    return `${text}. ${say.rows(rows.length)}`;
  }
  if (compared.length === 1 && rows.length === 1) {
    const r = compared[0]!;
    return say.against(mTitle, fmt(r[measure]), fmt(r[cols.previous]), pct(r[cols.percent]), signed(r[cols.change]));
  }
  const best = byChange[0]!;
  const worst = byChange[byChange.length - 1]!;
  const latest = [...compared].sort((a, b) => String(b[timeKey]).localeCompare(String(a[timeKey])))[0]!;
  let text = say.grewMost(mTitle, when(best), pct(best[cols.percent]));
  if (Number(worst[cols.percent]) < 0) text += `; ${say.fellMost(when(worst), pct(worst[cols.percent]))}`;
  text += `. ${say.latest(when(latest), pct(latest[cols.percent]), fmt(latest[cols.previous]), fmt(latest[measure]))} ${say.rows(rows.length)}`;
  return text;
}
