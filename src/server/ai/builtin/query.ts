/** Building the semantic query (and its period comparisons) of an understanding, and ranking its rows by change. */
import type { PeriodComparison } from "../../../schema/dashboard";
import type { QueryFilter, SemanticQuery } from "../../../schema/semantic-query";
import type { ToolOutcome, ToolState } from "../tools";
import { comparisonColumns, type Condition, type Understanding } from "./understanding";

/** The period comparisons of an understanding (growth, period over period), for `run_query`. */
export function comparisonsOf(u: Understanding): PeriodComparison[] | undefined {
  const cols = comparisonColumns(u);
  if (!cols || !u.time) return undefined;
  return [
    {
      measure: u.measures[0]!,
      timeDimension: u.time.dimension,
      offset: { amount: u.compare!.amount ?? 1, unit: u.compare!.unit },
      outputs: [cols.previous, cols.change, cols.percent],
    },
  ];
}

/** `run_query`'s arguments for an understanding: its query, and its period comparisons when it has them. */
export function runQueryArgs(u: Understanding): { query: SemanticQuery; periodComparisons?: PeriodComparison[] } {
  const periodComparisons = comparisonsOf(u);
  return { query: queryOf(u), ...(periodComparisons ? { periodComparisons } : {}) };
}

const conditionFilter = (c: Condition): QueryFilter => ({
  member: c.member,
  operator: c.operator,
  values: c.high !== undefined ? [c.value, c.high] : [c.value],
});
const valueFilter = (member: string, values: string[]): QueryFilter => ({ member, operator: values.length > 1 ? "in" : "equals", values });

/** The semantic query of an understanding. */
export function queryOf(u: Understanding): SemanticQuery {
  const query: SemanticQuery = { measures: u.measures };
  if (u.fields?.length) query.calculatedFields = u.fields;
  if (u.dimensions.length) query.dimensions = u.dimensions;
  if (u.time) {
    query.timeDimensions = [
      {
        dimension: u.time.dimension,
        ...(u.time.granularity ? { granularity: u.time.granularity } : {}),
        ...(u.time.part ? { part: u.time.part } : {}),
        ...(u.time.range ? { dateRange: [u.time.range.from, u.time.range.to] as [string, string] } : {}),
      },
    ];
  }
  const filters = u.filters.map((f): QueryFilter => ({
    member: f.member,
    operator: f.exclude ? (f.values.length > 1 ? "notIn" : "notEquals") : f.values.length > 1 ? "in" : "equals",
    values: f.values,
  }));
  for (const c of u.conditions ?? []) filters.push(conditionFilter(c));
  // "A or B", "(A and B) or C": one `or` of the alternatives, each an `and` of its filters (or the one filter).
  for (const group of u.anyOf ?? []) {
    const alternatives = group.map((a): QueryFilter => {
      const all = [...a.filters.map((f) => valueFilter(f.member, f.values)), ...a.conditions.map(conditionFilter)];
      return all.length === 1 ? all[0]! : { and: all };
    });
    filters.push({ or: alternatives });
  }
  if (filters.length) query.filters = filters;
  const m = u.measures[0]!;
  if (u.periods) {
    const { dimension, baseline, current } = u.periods;
    query.compare = { dimension, baseline: [baseline.from, baseline.to], current: [current.from, current.to] };
    // "which category grew fastest": ranked by the relative change; otherwise the current period's largest first.
    if (u.limit) {
      query.order = [[`${m}.relativeChange`, u.direction ?? "desc"]];
      query.limit = u.limit;
    }
    return query;
  }
  if (u.calculation) query.calculations = [{ type: u.calculation, measure: m }];
  if (u.perGroup) {
    query.groupLimit = { within: u.perGroup.within, limit: u.perGroup.limit, order: [[m, u.direction ?? "desc"]] };
    query.order = [
      [u.perGroup.within[0]!, "asc"],
      [m, u.direction ?? "desc"],
    ];
    return query;
  }
  if (u.limit) {
    query.order = [[u.measures[0]!, u.direction ?? "desc"]];
    query.limit = u.limit;
  } else if (u.time?.part) query.order = [[`${u.time.dimension}.${u.time.part}`, "asc"]];
  else if (u.time?.granularity) query.order = [[u.time.dimension, "asc"]];
  else if (u.dimensions.length) query.order = [[u.measures[0]!, "desc"]];
  return query;
}

/**
 * "top 5 countries by growth": the query's rows ranked by their relative change (rows without
 * an earlier figure last) and the first `limit` kept, in the table, the chart and the summary.
 */
export function rankedByChange(u: Understanding, outcome: ToolOutcome, state: ToolState): ToolOutcome {
  const cols = comparisonColumns(u);
  if (!u.rankByChange || !cols || !state.lastRows) return outcome;
  const { limit, direction } = u.rankByChange;
  const change = (r: Record<string, unknown>) => {
    const v = r[cols.percent];
    return v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v);
  };
  const ranked = [...state.lastRows]
    .sort((a, b) => {
      const x = change(a);
      const y = change(b);
      if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
      return direction === "asc" ? x - y : y - x;
    })
    .slice(0, limit);
  state.lastRows = ranked;
  return {
    ...outcome,
    summary: `${ranked.length} rows`,
    parts: outcome.parts.map((p) => (p.type === "table" ? { ...p, rows: ranked, truncated: false } : p)),
  };
}
