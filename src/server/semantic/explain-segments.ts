/**
 * Explaining the difference between two segments of the rows ("why is revenue in Germany lower
 * than in France?"): the measure under each side's filters, by the candidates, as rows shaped
 * like a `compare` query's (`m.baseline`, `m.current` per combination of candidate values), so
 * the ranking of `explain.ts` reads them as it reads two periods.
 */
import type { ExplainInput, ExplainSegment, QueryFilter } from "../../schema/semantic-query";
import type { QueryProblem } from "./errors";

type Row = Record<string, unknown>;
type Side = "baseline" | "current";

/** Whether a side of an explanation is a segment (filters) rather than a date range. */
export const isSegment = (side: ExplainInput["baseline"]): side is ExplainSegment => typeof side === "object" && !Array.isArray(side) && side !== null;

/** The problems of the kinds of an input's sides: both date ranges with a time dimension, or both segments without one. */
export function sideProblems(input: ExplainInput): QueryProblem[] {
  const [b, c] = [isSegment(input.baseline), isSegment(input.current)];
  if (b !== c) {
    const path = b ? ["current"] : ["baseline"];
    return [{ path, code: "invalid_shape", message: "baseline and current must be of one kind: two date ranges or two segments ({filters})" }];
  }
  if (!b && input.timeDimension === undefined) {
    return [{ path: ["timeDimension"], code: "invalid_shape", message: "two date ranges need the time dimension they are ranges of" }];
  }
  if (b && input.timeDimension !== undefined) {
    return [
      {
        path: ["timeDimension"],
        code: "invalid_shape",
        message: "two segments are compared by their filters: no time dimension (a shared date range goes in filters)",
      },
    ];
  }
  return [];
}

/** The query of one side: the shared filters, then the side's own. */
export function sideQuery(base: Record<string, unknown>, input: ExplainInput, side: Side, dimensions: string[]): Record<string, unknown> {
  const own = (input[side] as ExplainSegment).filters as QueryFilter[];
  return { ...base, filters: [...((input.filters ?? []) as QueryFilter[]), ...own], ...(dimensions.length ? { dimensions } : {}) };
}

/** A problem of a side's query, named by its place in the input: a shared filter, or the side's own. */
export function sideProblem(problem: QueryProblem, input: ExplainInput, side: Side): QueryProblem {
  const [head, index, ...rest] = problem.path;
  const shared = input.filters?.length ?? 0;
  if (head !== "filters" || typeof index !== "number") return problem;
  return { ...problem, path: index < shared ? problem.path : [side, "filters", index - shared, ...rest] };
}

/**
 * The two sides' rows as one result: a row per combination of `dimensions` values found on
 * either side, with `m.baseline` and `m.current` (0 where a side has no rows for it).
 */
export function mergeSides(measure: string, dimensions: string[], baseline: Row[], current: Row[]): Row[] {
  const merged = new Map<string, Row>();
  const add = (rows: Row[], column: string) => {
    for (const row of rows) {
      const key = JSON.stringify(dimensions.map((d) => row[d] ?? null));
      let out = merged.get(key);
      if (!out) {
        out = Object.fromEntries(dimensions.map((d) => [d, row[d] ?? null]));
        out[`${measure}.baseline`] = 0;
        out[`${measure}.current`] = 0;
        merged.set(key, out);
      }
      out[column] = Number(out[column] ?? 0) + Number(row[measure] ?? 0);
    }
  };
  add(baseline, `${measure}.baseline`);
  add(current, `${measure}.current`);
  return [...merged.values()];
}
