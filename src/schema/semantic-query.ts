import { z } from "zod";

/** Largest page a query may ask for; more is a 400, not a silent cap. */
export const MAX_QUERY_LIMIT = 50_000;
/** Rows returned when the query names no limit. */
export const DEFAULT_QUERY_LIMIT = 10_000;

export const granularities = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"] as const;
export type Granularity = (typeof granularities)[number];

export const filterOperators = [
  "equals",
  "notEquals",
  "contains",
  "notContains",
  "startsWith",
  "notStartsWith",
  "endsWith",
  "notEndsWith",
  "in",
  "notIn",
  "gt",
  "gte",
  "lt",
  "lte",
  "set",
  "notSet",
  "inDateRange",
  "notInDateRange",
  "beforeDate",
  "beforeOrOnDate",
  "afterDate",
  "afterOrOnDate",
] as const;
export type FilterOperator = (typeof filterOperators)[number];

export type FilterValue = string | number | boolean | null;

export interface MemberFilter {
  member: string;
  operator: FilterOperator;
  values?: FilterValue[];
}
export type QueryFilter = MemberFilter | { or: QueryFilter[] } | { and: QueryFilter[] };

const filterValueSchema = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

// Operators are checked against the member later (with a better message), so the shape
// accepts any string here and the validator names the bad operator with its path.
const memberFilterSchema = z.strictObject({
  member: z.string(),
  operator: z.string(),
  values: z.array(filterValueSchema).max(10_000).optional(),
});

export const queryFilterSchema: z.ZodType<QueryFilter> = z.lazy(() =>
  z.union([
    memberFilterSchema as unknown as z.ZodType<MemberFilter>,
    z.strictObject({ or: z.array(queryFilterSchema).min(1) }),
    z.strictObject({ and: z.array(queryFilterSchema).min(1) }),
  ]),
);

export type DateRange = string | [string, string];

export interface TimeDimension {
  dimension: string;
  granularity?: Granularity;
  dateRange?: DateRange;
}

export type OrderDirection = "asc" | "desc";

/** The query JSON of the semantic layer (decisions.md, "Semantic layer"). */
export interface SemanticQuery {
  measures?: string[];
  dimensions?: string[];
  timeDimensions?: TimeDimension[];
  filters?: QueryFilter[];
  order?: Record<string, OrderDirection> | [string, OrderDirection][];
  limit?: number;
  offset?: number;
  timezone?: string;
}

export const semanticQuerySchema = z.strictObject({
  measures: z.array(z.string()).max(200).optional(),
  dimensions: z.array(z.string()).max(200).optional(),
  timeDimensions: z
    .array(
      z.strictObject({
        dimension: z.string(),
        granularity: z.string().optional(),
        dateRange: z.union([z.string(), z.array(z.string())]).optional(),
      }),
    )
    .max(20)
    .optional(),
  filters: z.array(queryFilterSchema).max(500).optional(),
  order: z
    .union([z.record(z.string(), z.string()), z.array(z.tuple([z.string(), z.string()]))])
    .optional(),
  limit: z.number().optional(),
  offset: z.number().optional(),
  timezone: z.string().optional(),
});

/** A query after validation: every member exists, operators and values fit, limit is set. */
export interface ValidatedQuery {
  measures: string[];
  dimensions: string[];
  timeDimensions: TimeDimension[];
  filters: QueryFilter[];
  order: [string, OrderDirection][];
  limit: number;
  offset: number;
  timezone: string;
}
