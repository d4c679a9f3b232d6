import type { Dimension } from "./data-model";
import { resolveDateRange } from "./date-range";
import type { QueryProblemCode } from "./errors";
import type { ResolvedMember } from "./member-resolution";
import {
  MAX_QUERY_LIMIT,
  calculationTypes,
  compareOutputs,
  type Calculation,
  type CalculationType,
  type CompareRanges,
  type DateRange,
  type GroupLimit,
  type OrderDirection,
  type TimeDimension,
} from "../../schema/semantic-query";

type Path = (string | number)[];

/** What the checks of `compare`, `calculations` and `groupLimit` read from the rest of the query. */
export interface AnalysisInput {
  measures: string[];
  dimensions: string[];
  timeDimensions: TimeDimension[];
  timezone: string;
  now: Date;
  problems: { add(path: Path, code: QueryProblemCode, message: string): void };
  lookup(name: string, path: Path, kind?: "dimension" | "measure"): ResolvedMember | undefined;
}

/** The wire shapes of the three fields, before their strings are checked. */
type WireQuery = {
  compare?: { dimension: string; baseline: string | string[]; current: string | string[] };
  calculations?: { type: string; measure: string; within?: string[]; along?: string; direction?: string; name?: string }[];
  groupLimit?: { within: string[]; limit: number; order?: [string, string][] };
};

const COLUMN_NAME = /^[_a-zA-Z][_a-zA-Z0-9]*(\.[_a-zA-Z][_a-zA-Z0-9]*){0,3}$/;

/** Key columns of a query's rows: dimensions, then parts of time, then time buckets (as the planner orders them). */
export function keyColumnsOf(input: Pick<AnalysisInput, "dimensions" | "timeDimensions">): string[] {
  return [
    ...input.dimensions,
    ...input.timeDimensions.filter((t) => t.part).map((t) => `${t.dimension}.${t.part}`),
    ...input.timeDimensions.filter((t) => t.granularity).map((t) => `${t.dimension}.${t.granularity}`),
  ];
}

/** Measure columns of a query's rows: the measures, or with `compare` each measure's four outputs. */
export function measureColumnsOf(measures: string[], compared: boolean): string[] {
  return compared ? measures.flatMap((m) => compareOutputs.map((o) => `${m}.${o}`)) : measures;
}

/**
 * Checks `compare`: a time dimension of the model and two date ranges (relative ones resolved
 * like `dateRange`). The compared dimension may not also be bucketed or ranged in the query,
 * since its rows come from two different periods that must line up on the other key columns.
 */
export function checkCompare(wire: WireQuery["compare"], input: AnalysisInput): CompareRanges | undefined {
  if (!wire) return undefined;
  const { problems } = input;
  const m = input.lookup(wire.dimension, ["compare", "dimension"], "dimension");
  if (m && (m.def as Dimension).type !== "time") problems.add(["compare", "dimension"], "wrong_member_kind", `${wire.dimension} is not a time dimension`);
  for (const key of ["baseline", "current"] as const) {
    const resolved = resolveDateRange(wire[key], input.timezone, input.now);
    if (typeof resolved === "string") problems.add(["compare", key], "malformed_date_range", resolved);
  }
  input.timeDimensions.forEach((td, i) => {
    if (td.dimension !== wire.dimension) return;
    if (td.granularity) {
      problems.add(
        ["timeDimensions", i, "granularity"],
        "invalid_shape",
        `${td.dimension} is compared over two date ranges: its buckets differ between them, so it takes no granularity here (a part of time lines up)`,
      );
    }
    if (td.dateRange !== undefined) {
      problems.add(
        ["timeDimensions", i, "dateRange"],
        "invalid_shape",
        `${td.dimension} is compared over compare.baseline and compare.current: it takes no dateRange`,
      );
    }
  });
  input.dimensions.forEach((d, i) => {
    if (d === wire.dimension) {
      problems.add(["dimensions", i], "invalid_shape", `${d} is compared over two date ranges: its values differ between them (a part of time lines up)`);
    }
  });
  if (input.measures.length === 0) problems.add(["compare"], "invalid_shape", "compare needs at least one measure");
  return { dimension: wire.dimension, baseline: wire.baseline as DateRange, current: wire.current as DateRange };
}

/** Checks `calculations` against the query's key and measure columns; names each one. */
export function checkCalculations(
  wire: WireQuery["calculations"],
  input: AnalysisInput,
  measureColumns: string[],
  taken: Set<string>,
): Calculation[] | undefined {
  if (!wire) return undefined;
  const { problems } = input;
  const keys = keyColumnsOf(input);
  const firstTime = input.timeDimensions.find((t) => t.granularity);
  return wire.map((c, i): Calculation => {
    const path: Path = ["calculations", i];
    const type = c.type as CalculationType;
    if (!(calculationTypes as readonly string[]).includes(c.type)) {
      problems.add([...path, "type"], "invalid_shape", `unknown calculation "${c.type}" (${calculationTypes.join(", ")})`);
    }
    if (!measureColumns.includes(c.measure)) {
      problems.add([...path, "measure"], "unknown_member", `"${c.measure}" is not a measure column of the query (${measureColumns.join(", ") || "none"})`);
    }
    (c.within ?? []).forEach((w, k) => {
      if (!keys.includes(w))
        problems.add([...path, "within", k], "unknown_member", `"${w}" is not a dimension column of the query (${keys.join(", ") || "none"})`);
    });
    let along = c.along;
    if (type === "runningTotal") {
      along ??= firstTime ? `${firstTime.dimension}.${firstTime.granularity}` : undefined;
      if (along === undefined) problems.add([...path, "along"], "invalid_shape", "a running total needs `along`: the dimension column it runs along");
      else if (!keys.includes(along) || (c.within ?? []).includes(along)) {
        problems.add([...path, "along"], "unknown_member", `"${along}" is not a dimension column of the query outside \`within\``);
      }
    } else if (c.along !== undefined) problems.add([...path, "along"], "invalid_shape", "only a runningTotal takes `along`");
    if (c.direction !== undefined && (type !== "rank" || (c.direction !== "asc" && c.direction !== "desc"))) {
      problems.add([...path, "direction"], "invalid_shape", 'only a rank takes a direction: "desc" (largest first) or "asc"');
    }
    const name = c.name ?? `${c.measure}.${c.type}`;
    if (!COLUMN_NAME.test(name) || name.length > 100) problems.add([...path, "name"], "invalid_shape", `name "${name}" must look like a member name`);
    else if (taken.has(name)) problems.add([...path, "name"], "invalid_shape", `"${name}" is already a column of the query`);
    taken.add(name);
    return {
      type,
      measure: c.measure,
      ...(c.within?.length ? { within: c.within } : {}),
      ...(type === "runningTotal" && along ? { along } : {}),
      ...(type === "rank" ? { direction: (c.direction as OrderDirection | undefined) ?? "desc" } : {}),
      name,
    };
  });
}

/** Checks `groupLimit`: groups by key columns, a limit, an order over key and measure columns. */
export function checkGroupLimit(wire: WireQuery["groupLimit"], input: AnalysisInput, measureColumns: string[]): GroupLimit | undefined {
  if (!wire) return undefined;
  const { problems } = input;
  const keys = keyColumnsOf(input);
  wire.within.forEach((w, k) => {
    if (!keys.includes(w))
      problems.add(["groupLimit", "within", k], "unknown_member", `"${w}" is not a dimension column of the query (${keys.join(", ") || "none"})`);
  });
  if (!Number.isInteger(wire.limit) || wire.limit < 1 || wire.limit > MAX_QUERY_LIMIT) {
    problems.add(["groupLimit", "limit"], "limit_out_of_range", `groupLimit.limit must be an integer from 1 to ${MAX_QUERY_LIMIT}`);
  }
  const orderable = [...keys, ...measureColumns];
  const order: [string, OrderDirection][] = [];
  (wire.order ?? []).forEach(([column, dir], i) => {
    if (!orderable.includes(column)) problems.add(["groupLimit", "order", i], "unknown_member", `"${column}" is not a column of the query (key or measure)`);
    else if (dir !== "asc" && dir !== "desc") problems.add(["groupLimit", "order", i], "invalid_shape", 'order direction must be "asc" or "desc"');
    else order.push([column, dir]);
  });
  if (!wire.order?.length) {
    if (measureColumns.length) order.push([measureColumns.find((c) => !c.endsWith(".baseline")) ?? measureColumns[0]!, "desc"]);
    else problems.add(["groupLimit", "order"], "invalid_shape", "groupLimit needs an order when the query has no measure");
  }
  return { within: wire.within, limit: wire.limit, order };
}

/** Filters on measures (HAVING) would say nothing about which period they mean: a compare query refuses them. */
export function checkCompareFilters(compare: CompareRanges | undefined, filterHasMeasure: boolean[], problems: AnalysisInput["problems"]) {
  if (!compare) return;
  filterHasMeasure.forEach((has, i) => {
    if (has) problems.add(["filters", i], "measure_filter_not_allowed", "a compare query takes no filters on measures (which period would they mean?)");
  });
}
