/** KPI figures from a query result: the value of the latest period and its comparison. */
import type { PeriodComparison } from "../../../schema/dashboard";
import { t, type SupportedLocale } from "../../i18n";
import { numericValue } from "../query/format-cell";

export interface KpiFigures {
  value: number | null;
  /** The comparison period's value, when the report has a period comparison. */
  previous: number | null;
  /** (value - previous) / |previous|; null without a comparison or with previous 0. */
  change: number | null;
  /** The comparison's offset back in time ({ amount: 1, unit: "year" }), phrased by `comparisonPhrase`. */
  comparisonOffset: { amount: number; unit: string } | null;
  /** Values of the measure over time (oldest first) for a sparkline. */
  series: number[];
}

/** Name of the comparison column the server adds (the first output, else its default name). */
export function comparisonColumn(comparison: PeriodComparison): string {
  if (comparison.outputs && comparison.outputs.length > 0) return comparison.outputs[0]!;
  const amount = comparison.offset.amount;
  const unit = comparison.offset.unit.replace(/s$/, "");
  const suffix = Math.abs(amount) === 1 ? unit : `${Math.abs(amount)}_${unit}s`;
  return `${comparison.measure}_${amount > 0 ? "prev" : "next"}_${suffix}`;
}

/**
 * With a time dimension the rows are periods: the KPI is the latest period (rows sorted by
 * that column), else the first row.
 */
export function computeKpi(
  rows: readonly Record<string, unknown>[],
  measure: string,
  comparisons: readonly PeriodComparison[] | null | undefined,
  timeColumn?: string,
): KpiFigures {
  const ordered = timeColumn ? [...rows].sort((a, b) => String(a[timeColumn] ?? "").localeCompare(String(b[timeColumn] ?? ""))) : [...rows];
  const latest = timeColumn ? ordered[ordered.length - 1] : ordered[0];
  const value = latest ? numericValue(latest[measure]) : null;
  const comparison = comparisons?.find((c) => c.measure === measure);
  let previous: number | null = null;
  if (comparison && latest) previous = numericValue(latest[comparisonColumn(comparison)]);
  const change = value !== null && previous !== null && previous !== 0 ? (value - previous) / Math.abs(previous) : null;
  const series = timeColumn ? ordered.map((r) => numericValue(r[measure])).filter((n): n is number => n !== null) : [];
  const comparisonOffset = comparison ? { amount: Math.abs(comparison.offset.amount), unit: comparison.offset.unit } : null;
  return { value, previous, change, comparisonOffset, series };
}

const RELATIVE_UNITS = new Set(["year", "quarter", "month", "week", "day", "hour", "minute"]);

/**
 * The comparison period in the viewer's language: Intl's relative time ("last year",
 * "letztes Jahr", "昨年", "2 months ago") inside the locale's own sentence, e.g.
 * "vs. $596,504 last year" or "Letztes Jahr: 596.504 $".
 */
export function comparisonPhrase(locale: SupportedLocale, offset: { amount: number; unit: string }, formattedValue: string): string {
  const unit = offset.unit.replace(/s$/, "");
  const period = RELATIVE_UNITS.has(unit)
    ? new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(-Math.abs(offset.amount), unit as Intl.RelativeTimeFormatUnit)
    : `${offset.amount} ${offset.unit}`;
  const phrase = t(locale, "kpi.previous", { period, value: formattedValue });
  // A sentence that opens with the period starts with a capital ("Letztes Jahr: …").
  return phrase.startsWith(period) ? period.charAt(0).toLocaleUpperCase(locale) + phrase.slice(1) : phrase;
}
