/** The chart that fits an understanding's rows. */
import type { ChartRequest } from "../types";
import { comparisonColumns, type Understanding } from "./understanding";

/** Which chart fits the rows of an understanding. */
export function chartFor(u: Understanding): ChartRequest | null {
  const measure = u.measures[0]!;
  // Two periods: both bars per row; a running total: its line; the top per group: a bar per row.
  if (u.periods) return u.dimensions.length ? { type: "bar", x: u.dimensions[0]!, y: [`${measure}.baseline`, `${measure}.current`] } : null;
  if (u.calculation === "runningTotal" && u.time?.granularity)
    return { type: "line", x: `${u.time.dimension}.${u.time.granularity}`, y: [`${measure}.runningTotal`] };
  if (u.perGroup) return { type: "bar", x: u.dimensions[0]!, y: [measure], series: u.perGroup.within[0]! };
  const cols = comparisonColumns(u);
  if (cols && u.time?.granularity) {
    const x = `${u.time.dimension}.${u.time.granularity}`;
    // Growth over a series: the relative change per period; a period against a year earlier: both lines.
    if (u.dimensions.length) return { type: "bar", x: u.dimensions[0]!, y: [measure, cols.previous] };
    if (u.compare!.unit === u.time.granularity) return { type: "bar", x, y: [cols.percent] };
    return { type: "line", x, y: [measure, cols.previous] };
  }
  if (u.time?.part && !u.time.granularity) return { type: "bar", x: `${u.time.dimension}.${u.time.part}`, y: [measure] };
  if (u.time?.granularity) {
    const x = `${u.time.dimension}.${u.time.granularity}`;
    return { type: "line", x, y: [measure], ...(u.dimensions[0] ? { series: u.dimensions[0] } : {}) };
  }
  if (u.dimensions.length) return { type: "bar", x: u.dimensions[0]!, y: [measure], ...(u.dimensions[1] ? { series: u.dimensions[1] } : {}) };
  return null;
}
