import { QueryValidationError, type QueryProblem } from "./errors";
import type { QueryEngine } from "./query-engine";
import type { SecurityContext } from "./security-context";
import { MAX_QUERY_LIMIT, type ExplainInput, type ExplainResult, type ExplainSegment, type QueryFilter } from "../../schema/semantic-query";
import { isSegment, mergeSides, sideProblem, sideProblems, sideQuery } from "./explain-segments";

/** Options of `explainChange`. */
export interface ExplainOptions {
  /** Viewer; every figure is of the rows their row-level security lets them see. */
  securityContext: SecurityContext;
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Rows of the one query grouped by every candidate at once, at most (default the query limit,
   * 50 000); past it each candidate is queried on its own.
   */
  maxCombinedRows?: number;
}

/** Measures whose values add up over the values of a dimension, so that contributions sum to the total change. */
const ADDITIVE = new Set(["count", "sum"]);
const DEFAULT_CONTRIBUTORS = 10;
const MAX_CONTRIBUTORS = 100;

type Contributor = ExplainResult["contributors"][number];

/**
 * Which values of the candidate dimensions moved a measure most between two date ranges (one
 * `compare` query) or between two segments of the rows (a query per side's filters), all run
 * under the viewer's row-level security; the values are ranked by the absolute size of their change, each
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
  problems.push(...sideProblems(input));
  if (problems.length) throw new QueryValidationError(problems);

  const segmented = isSegment(input.baseline);
  const base = {
    measures: [input.measure],
    ...(segmented ? {} : { compare: { dimension: input.timeDimension, baseline: input.baseline, current: input.current } }),
    ...(input.filters ? { filters: input.filters as QueryFilter[] } : {}),
    ...(input.timezone !== undefined ? { timezone: input.timezone } : {}),
    limit: MAX_QUERY_LIMIT,
  };
  const load = (query: Record<string, unknown>) =>
    engine.load(query, { securityContext: options.securityContext, signal: options.signal, timeoutMs: options.timeoutMs });
  // Rows by some dimensions, shaped as a compare query's: one query over two date ranges, or
  // one per segment merged (each side's filter problems named by their place in the input).
  const rowsBy = async (dimensions: string[], limit: number): Promise<{ data: Row[]; full: boolean; ranges?: ExplainResult["ranges"] }> => {
    if (!segmented) {
      const r = await load({ ...base, ...(dimensions.length ? { dimensions } : {}), limit });
      return { data: r.data, full: r.data.length >= limit, ranges: r.annotation.compare![`${input.measure}.change`]!.ranges };
    }
    const side = (s: "baseline" | "current") =>
      load({ ...sideQuery(base, input, s, dimensions), limit }).catch((e: unknown) => {
        throw inputError(e, (problem) => sideProblem(problem, input, s));
      });
    const [b, c] = await Promise.all([side("baseline"), side("current")]);
    return { data: mergeSides(input.measure, dimensions, b.data, c.data), full: b.data.length >= limit || c.data.length >= limit };
  };
  const candidates = [...new Set(input.candidates)];
  // One query grouped by every candidate at once: a count or a sum of a value is the sum over its
  // finer groups, so each candidate's figures and the total are added up from these rows — the
  // two periods are scanned once, whatever the number of candidates. Only when the combinations
  // do not fit one result does each candidate get a query of its own.
  const maxCombined = Math.min(options.maxCombinedRows ?? MAX_QUERY_LIMIT, MAX_QUERY_LIMIT);
  const combined = await rowsBy(candidates, maxCombined).catch((e: unknown) => {
    throw inputError(e, (problem) => inInput(problem, problem.path[0] === "dimensions" ? input.candidates.indexOf(candidates[Number(problem.path[1])]!) : -1));
  });
  // Past the limit: the total from a query without dimensions, and each candidate's rows from its own.
  const [totalRows, ...rowsByCandidate] = !combined.full
    ? [combined.data, ...candidates.map(() => combined.data)]
    : await perCandidateRows((dims) => rowsBy(dims, MAX_QUERY_LIMIT).then((r) => r.data), ["", ...candidates], ["", ...input.candidates]);
  const sum = decimalSum(rowsByCandidate.flat().flatMap((row) => [row[`${input.measure}.baseline`], row[`${input.measure}.current`]]));
  const totals = figures(sum(totalRows!, `${input.measure}.baseline`), sum(totalRows!, `${input.measure}.current`));
  const contributors: (Contributor & { order: number })[] = candidates.flatMap((dimension, order) => {
    const groups = new Map<string, { value: Contributor["value"]; rows: Record<string, unknown>[] }>();
    for (const row of rowsByCandidate[order]!) {
      const value = row[dimension] as Contributor["value"];
      const key = JSON.stringify(value ?? null);
      const group = groups.get(key) ?? groups.set(key, { value, rows: [] }).get(key)!;
      group.rows.push(row);
    }
    return [...groups.values()].map(({ value, rows }) => {
      const f = figures(sum(rows, `${input.measure}.baseline`), sum(rows, `${input.measure}.current`));
      return { dimension, value, ...f, share: totals.change === 0 ? null : f.change / totals.change, order };
    });
  });
  const ranked = contributors
    .filter((c) => c.change !== 0)
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.order - b.order || String(a.value).localeCompare(String(b.value)))
    .slice(0, limit)
    .map(({ order: _order, ...c }) => c);
  return {
    measure: input.measure,
    // A compare query always annotates its columns with both ranges; segments are echoed as asked.
    ...(segmented
      ? { segments: { baseline: input.baseline as ExplainSegment, current: input.current as ExplainSegment } }
      : { timeDimension: input.timeDimension, ranges: combined.ranges }),
    total: totals,
    contributors: ranked,
  };
}

type Row = Record<string, unknown>;

/**
 * Each candidate's rows from a query of its own (when the combinations of all do not fit one
 * result); `""` stands for the query without dimensions (the total). `asked` is the input's list,
 * with `""` first, for the paths of refused candidates.
 */
async function perCandidateRows(rowsBy: (dimensions: string[]) => Promise<Row[]>, candidates: string[], asked: string[]): Promise<Row[][]> {
  const settled = await Promise.allSettled(candidates.map((d) => rowsBy(d ? [d] : [])));
  const failed = settled.flatMap((s, i) => (s.status === "rejected" ? [{ error: s.reason as unknown, candidate: asked.indexOf(candidates[i]!) - 1 }] : []));
  if (failed.length) {
    const invalid = failed.filter((f) => f.error instanceof QueryValidationError);
    if (invalid.length < failed.length) throw failed.find((f) => !(f.error instanceof QueryValidationError))!.error;
    throw new QueryValidationError(uniqueProblems(invalid.flatMap((f) => (f.error as QueryValidationError).details.map((d) => inInput(d, f.candidate)))));
  }
  return settled.map((s) => (s as PromiseFulfilledResult<Row[]>).value);
}

function figures(baseline: number, current: number) {
  const change = current - baseline;
  return { baseline, current, change, relativeChange: baseline === 0 ? null : change / baseline };
}

/**
 * A sum over rows of one column (missing values are 0), rounded to the most decimal places any
 * of `values` has: sums of decimal amounts (2.50 + 0.10) come out as the database would write
 * them, not with binary floating-point tails.
 */
function decimalSum(values: unknown[]): (rows: Record<string, unknown>[], column: string) => number {
  let places = 0;
  for (const v of values) {
    const text = typeof v === "number" && Number.isFinite(v) ? String(v) : "";
    const dot = text.indexOf(".");
    if (dot >= 0 && !text.includes("e")) places = Math.max(places, text.length - dot - 1);
  }
  const scale = 10 ** Math.min(places, 10);
  return (rows, column) => Math.round(rows.reduce((total, row) => total + Number(row[column] ?? 0), 0) * scale) / scale;
}

/** A refused compare query, its problems named by their place in the explain input. */
function inputError(error: unknown, rename: (problem: QueryProblem) => QueryProblem): unknown {
  if (!(error instanceof QueryValidationError)) return error;
  return new QueryValidationError(uniqueProblems(error.details.map(rename)));
}

/** A problem of one of the compare queries, named by its place in the explain input. */
function inInput(problem: QueryProblem, candidate: number): QueryProblem {
  const [head, second] = problem.path;
  const rest = problem.path.slice(2);
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
