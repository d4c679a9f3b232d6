import type { DataModel } from "../data-model";
import { resolveMember, type ResolvedMember } from "../member-resolution";
import type { CalculationType, OrderDirection, ValidatedQuery } from "../../../schema/semantic-query";

/** One window calculation over the aggregated rows. */
export interface PlannedCalculation {
  type: CalculationType;
  /** The measure column it reads. */
  column: string;
  /** The measure behind that column (titles and format). */
  measure: ResolvedMember;
  /** Key columns that partition the rows (empty: all rows). */
  within: string[];
  /** runningTotal: the key column it runs along, then the other key columns so ties add up in a fixed order. */
  along: string[];
  direction: OrderDirection;
  /** Result column. */
  name: string;
}

/** Top N rows per group of `within` values, numbered in `order` (then by the other key columns, so ties are cut the same way each time). */
export interface PlannedGroupLimit {
  within: string[];
  limit: number;
  order: [string, OrderDirection][];
}

/**
 * Calculations and a per-group limit run over the aggregated rows (after the viewer's
 * row-level security, the filters and HAVING), before the query's own order and limit.
 */
export interface CalculationPlan {
  calculations: PlannedCalculation[];
  groupLimit?: PlannedGroupLimit;
}

/** Plans the validated `calculations` and `groupLimit` of a query over its key columns. */
export function planCalculations(
  model: DataModel,
  query: ValidatedQuery,
  keyColumns: string[],
  // Knows the query's calculated fields besides the model's members.
  resolve: (name: string) => ResolvedMember | undefined = (name) => resolveMember(model, name),
): CalculationPlan | undefined {
  if (!query.calculations?.length && !query.groupLimit) return undefined;
  const measureOf = (column: string) => resolve(query.measures.includes(column) ? column : column.slice(0, column.lastIndexOf(".")))!;
  const calculations = (query.calculations ?? []).map((c): PlannedCalculation => {
    const within = c.within ?? [];
    return {
      type: c.type,
      column: c.measure,
      measure: measureOf(c.measure),
      within,
      along: c.along ? [c.along, ...keyColumns.filter((k) => k !== c.along && !within.includes(k))] : [],
      direction: c.direction ?? "desc",
      name: c.name!,
    };
  });
  const g = query.groupLimit;
  if (!g) return { calculations };
  const ordered = new Set(g.order!.map(([c]) => c));
  const tieBreak = keyColumns.filter((k) => !g.within.includes(k) && !ordered.has(k)).map((k): [string, OrderDirection] => [k, "asc"]);
  return { calculations, groupLimit: { within: g.within, limit: g.limit, order: [...g.order!, ...tieBreak] } };
}
