/**
 * The chart the builder suggests for the shape of a result: a single number is a KPI, a trend
 * (one time dimension by a period) a line, one category of at most 12 values (or a part of
 * time) a bar, more categories a table, two breakouts or more a pivot. The creator may pick
 * another; the suggestion is marked among the choices.
 */
import type { SemanticQuery } from "../../shell/platform-api";
import type { Viz } from "./report-query";

/** At most this many categories read well as bars. */
export const MAX_BAR_CATEGORIES = 12;

export interface ResultShape {
  measures: number;
  /** Breakouts that are not time (the query's dimensions). */
  categories: number;
  /** How the time dimension breaks the result out, if it does. */
  time: "period" | "part" | null;
  /** The result's row count, when known. */
  rowCount: number | null;
}

export function suggestedVizOf(shape: ResultShape): Viz {
  const breakouts = shape.categories + (shape.time ? 1 : 0);
  if (!shape.measures) return "table";
  if (breakouts === 0) return "kpi";
  if (breakouts >= 2) return "pivot";
  if (shape.time === "period") return "line";
  if (shape.time === "part") return "bar";
  return shape.rowCount !== null && shape.rowCount > MAX_BAR_CATEGORIES ? "table" : "bar";
}

/** The shape of a complete query (and of its result, once its row count is known). */
export function shapeOf(q: SemanticQuery, rowCount: number | null): ResultShape {
  const td = q.timeDimensions?.find((t) => t.granularity || t.part);
  return {
    measures: q.measures?.length ?? 0,
    categories: q.dimensions?.length ?? 0,
    time: td?.part ? "part" : td ? "period" : null,
    rowCount,
  };
}
