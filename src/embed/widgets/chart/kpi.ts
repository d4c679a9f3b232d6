/** KPI figures from a query result: the value of the latest period and its comparison. */
import type { PeriodComparison } from "../../../schema/dashboard";
import { numericValue } from "../query/format-cell";

export interface KpiFigures {
  value: number | null;
  /** The comparison period's value, when the report has a period comparison. */
  previous: number | null;
  /** (value - previous) / |previous|; null without a comparison or with previous 0. */
  change: number | null;
  /** Title-ready offset, e.g. "1 month". */
  comparisonLabel: string | null;
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
  const comparisonLabel = comparison ? `${Math.abs(comparison.offset.amount)} ${comparison.offset.unit}` : null;
  return { value, previous, change, comparisonLabel, series };
}
