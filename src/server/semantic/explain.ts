import { QueryValidationError, type QueryProblem } from "./errors";
import type { QueryEngine } from "./query-engine";
import type { SecurityContext } from "./security-context";
import { MAX_QUERY_LIMIT, type ExplainInput, type ExplainResult, type QueryFilter } from "../../schema/semantic-query";

/** Options of `explainChange`. */
export interface ExplainOptions {
  /** Viewer; every figure is of the rows their row-level security lets them see. */
  securityContext: SecurityContext;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** Measures whose values add up over the values of a dimension, so that contributions sum to the total change. */
const ADDITIVE = new Set(["count", "sum"]);
const DEFAULT_CONTRIBUTORS = 10;
const MAX_CONTRIBUTORS = 100;

type Contributor = ExplainResult["contributors"][number];

/**
 * Which values of the candidate dimensions moved a measure most between two date ranges: one
 * `compare` query for the total and one per candidate (by that dimension), all run under the
 * viewer's row-level security; the values are ranked by the absolute size of their change, each
 * with its share of the total change. Throws `QueryValidationError` with paths in `input`.
 */
export async function explainChange(engine: QueryEngine, input: ExplainInput, options: ExplainOptions): Promise<ExplainResult> {
  const limit = input.limit ?? DEFAULT_CONTRIBUTORS;
  const problems: QueryProblem[] = [];
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CONTRIBUTORS) {
    problems.push({ path: ["limit"], code: "limit_out_of_range", message: `limit must be an integer from 1 to ${MAX_CONTRIBUTORS}` });
  }
  const measure = engine
    .meta(options.securityContext)
    .sources.flatMap((s) => s.measures)
    .find((m) => m.name === input.measure);
  if (measure && !ADDITIVE.has(measure.measureType ?? "")) {
    problems.push({
      path: ["measure"],
      code: "wrong_member_kind",
      message: `${input.measure} is a ${measure.measureType} measure: explaining a change needs a count or a sum, whose parts add up to the total`,
    });
  }
  if (problems.length) throw new QueryValidationError(problems);

  const base = {
    measures: [input.measure],
    compare: { dimension: input.timeDimension, baseline: input.baseline, current: input.current },
    ...(input.filters ? { filters: input.filters as QueryFilter[] } : {}),
    ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
    limit: MAX_QUERY_LIMIT,
  };
  const load = (query: Record<string, unknown>) =>
    engine.load(query, { securityContext: options.securityContext, signal: options.signal, timeoutMs: options.timeoutMs });
  const settled = await Promise.allSettled([load(base), ...input.candidates.map((d) => load({ ...base, dimensions: [d] }))]);
  const failed = settled.flatMap((s, i) => (s.status === "rejected" ? [{ error: s.reason as unknown, candidate: i - 1 }] : []));
  if (failed.length) {
    const invalid = failed.filter((f) => f.error instanceof QueryValidationError);
    if (invalid.length < failed.length) throw failed.find((f) => !(f.error instanceof QueryValidationError))!.error;
    throw new QueryValidationError(uniqueProblems(invalid.flatMap((f) => (f.error as QueryValidationError).details.map((d) => inInput(d, f.candidate)))));
  }
  const [total, ...byCandidate] = settled.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof load>>>).value);
  const figures = (row: Record<string, unknown> | undefined) => {
    const read = (output: string) => Number(row?.[`${input.measure}.${output}`] ?? 0);
    const relative = row?.[`${input.measure}.relativeChange`];
    return { baseline: read("baseline"), current: read("current"), change: read("change"), relativeChange: relative == null ? null : Number(relative) };
  };
  const totals = figures(total!.data[0]);
  const contributors: (Contributor & { order: number })[] = byCandidate.flatMap((result, order) => {
    const dimension = input.candidates[order]!;
    return result.data.map((row) => {
      const f = figures(row);
      return { dimension, value: row[dimension] as Contributor["value"], ...f, share: totals.change === 0 ? null : f.change / totals.change, order };
    });
  });
  const ranked = contributors
    .filter((c) => c.change !== 0)
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.order - b.order || String(a.value).localeCompare(String(b.value)))
    .slice(0, limit)
    .map(({ order: _order, ...c }) => c);
  // A compare query always annotates its columns with both ranges.
  const ranges = total!.annotation.compare![`${input.measure}.change`]!.ranges;
  return {
    measure: input.measure,
    timeDimension: input.timeDimension,
    ranges,
    total: totals,
    contributors: ranked,
  };
}

/** A problem of one of the compare queries, named by its place in the explain input. */
function inInput(problem: QueryProblem, candidate: number): QueryProblem {
  const [head, second, ...rest] = problem.path;
  let path = problem.path;
  if (head === "measures") path = ["measure"];
  else if (head === "dimensions") path = ["candidates", candidate, ...rest];
  else if (head === "compare" && second === "dimension") path = ["timeDimension"];
  else if (head === "compare" && (second === "baseline" || second === "current")) path = [second, ...rest];
  return { ...problem, path };
}

function uniqueProblems(problems: QueryProblem[]): QueryProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = JSON.stringify([p.path, p.code]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
