import { z } from "zod";
import { CalculatedFieldSchema, MAX_CALCULATED_FIELDS, type CalculatedField } from "./calculated-field";
import { FillMissingRows, PeriodComparison } from "./dashboard";
import { DataExportFormat } from "./export-grants";

/** Largest page a query may ask for; more is a 400, not a silent cap. */
/** A locale tag a query's content is shown in (docs/translation.md). */
export const ContentLocale = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, "must be a locale tag such as de-DE");

export const MAX_QUERY_LIMIT = 50_000;
/** Rows returned when the query names no limit. */
export const DEFAULT_QUERY_LIMIT = 10_000;
/**
 * Most time buckets `fillMissingRows` may generate. A query whose date range is known is
 * refused before it runs when its grid would be larger; an open range is bounded by the
 * query's time limit.
 */
export const MAX_FILL_BUCKETS = 100_000;

export const granularities = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"] as const;
export type Granularity = (typeof granularities)[number];

/**
 * Parts of time: a time dimension read as its day of the week (1 Monday … 7 Sunday, ISO), hour
 * of the day (0–23), day of the month, ISO week of the year, month of the year (1–12) or
 * quarter of the year (1–4), in the query's time zone. Integers, so they sort in calendar
 * order; the embed and the chat label them in the viewer's language.
 */
export const timeParts = ["dayOfWeek", "hourOfDay", "dayOfMonth", "weekOfYear", "monthOfYear", "quarterOfYear"] as const;
export type TimePart = (typeof timeParts)[number];

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
  "between",
  "notBetween",
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

const FilterValueSchema = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

// Operators are checked against the member later (with a better message), so the shape
// accepts any string here and the validator names the bad operator with its path.
export const MemberFilterSchema = z
  .strictObject({
    member: z.string(),
    operator: z.string().meta({ description: "equals, notEquals, contains, …, inDateRange (docs/data-model.md)." }),
    values: z.array(FilterValueSchema).max(10_000).optional(),
  })
  .meta({ id: "MemberFilter" });

/** A filter as it arrives, before the validator has checked its operator against the member. */
export type WireQueryFilter = { member: string; operator: string; values?: FilterValue[] } | { or: WireQueryFilter[] } | { and: WireQueryFilter[] };

/**
 * A filter: a member filter, or `{or: [...]}` / `{and: [...]}` of filters. Recursive through
 * a named lazy schema, so the OpenAPI document refers to it by `$ref`.
 */
export const QueryFilterSchema: z.ZodType<WireQueryFilter> = z
  .lazy(() =>
    z.union([MemberFilterSchema, z.strictObject({ or: z.array(QueryFilterSchema).min(1) }), z.strictObject({ and: z.array(QueryFilterSchema).min(1) })]),
  )
  .meta({ id: "QueryFilter" });

export type DateRange = string | [string, string];

export interface TimeDimension {
  dimension: string;
  granularity?: Granularity;
  /** A part of time instead of buckets (one or the other): result column `<dimension>.<part>`. */
  part?: TimePart;
  dateRange?: DateRange;
}

export type OrderDirection = "asc" | "desc";

/**
 * Period against period: the query's measures over two date ranges of one time dimension,
 * side by side per row of the other dimensions. `baseline` is the range compared against
 * (the "before"); `current` the range compared (the "after"). Each measure `m` gives the
 * columns `m.baseline`, `m.current`, `m.change` (current − baseline) and `m.relativeChange`
 * (change / baseline, null when the baseline is 0).
 */
export interface CompareRanges {
  dimension: string;
  baseline: DateRange;
  current: DateRange;
}

/** The columns a compared measure `m` gives, in result order: `m.<output>`. */
export const compareOutputs = ["baseline", "current", "change", "relativeChange"] as const;
export type CompareOutput = (typeof compareOutputs)[number];

/**
 * Window calculations over the aggregated rows: the share of a measure in the total of the
 * rows (or of the rows with the same `within` values), its running total along a key column,
 * or its rank (1 = largest, ties share a rank).
 */
export const calculationTypes = ["percentOfTotal", "runningTotal", "rank"] as const;
export type CalculationType = (typeof calculationTypes)[number];

export interface Calculation {
  type: CalculationType;
  /** A measure column of the result (with `compare`: `m.baseline`, `m.current`, `m.change`, `m.relativeChange`). */
  measure: string;
  /** Key columns of the query that start a new total or ranking (a dimension, `<time>.<granularity>`, `<time>.<part>`). */
  within?: string[];
  /** runningTotal: the key column the total runs along, ascending (default the first time dimension with a granularity). */
  along?: string;
  /** rank: `desc` (default) ranks the largest first, `asc` the smallest. */
  direction?: OrderDirection;
  /** Result column name; default `<measure>.<type>`. */
  name?: string;
}

/** Keeps the first `limit` rows of each group of `within` values, ordered by `order` (top N per group). */
export interface GroupLimit {
  within: string[];
  limit: number;
  /** Default: the first measure descending. */
  order?: [string, OrderDirection][];
}

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
  /** Period against period (docs/data-model.md, "Comparing two date ranges"). */
  compare?: CompareRanges;
  /** Percent of total, running totals and ranks over the aggregated rows. */
  calculations?: Calculation[];
  /** Top N rows within each group. */
  groupLimit?: GroupLimit;
  /** Fields computed by formulas over the view's members, named `<view>.<name>` (docs/data-model.md, "Calculated fields"). */
  calculatedFields?: CalculatedField[];
}

const WireDateRange = z.union([z.string(), z.array(z.string())]);

/** The wire form of a semantic query; the validator then checks members, operators and values. */
export const SemanticQuerySchema = z
  .strictObject({
    measures: z.array(z.string()).max(200).optional(),
    dimensions: z.array(z.string()).max(200).optional(),
    timeDimensions: z
      .array(
        z.strictObject({
          dimension: z.string(),
          granularity: z.string().optional(),
          part: z.string().optional().meta({
            description:
              "dayOfWeek, hourOfDay, dayOfMonth, weekOfYear, monthOfYear or quarterOfYear: a part of time instead of a granularity (docs/data-model.md).",
          }),
          dateRange: z.union([z.string(), z.array(z.string())]).optional(),
        }),
      )
      .max(20)
      .optional(),
    filters: z.array(QueryFilterSchema).max(500).optional(),
    order: z.union([z.record(z.string(), z.string()), z.array(z.tuple([z.string(), z.string()]))]).optional(),
    limit: z.number().optional(),
    offset: z.number().optional(),
    timezone: z.string().optional(),
    compare: z
      .strictObject({
        dimension: z.string(),
        baseline: WireDateRange.meta({ description: "The range compared against (before): [from, to] or a relative range." }),
        current: WireDateRange.meta({ description: "The range compared (after): [from, to] or a relative range." }),
      })
      .optional()
      .meta({
        description:
          "Period against period: each measure m gives m.baseline, m.current, m.change and m.relativeChange per row of the dimensions (docs/data-model.md).",
      }),
    calculations: z
      .array(
        z.strictObject({
          type: z.string().meta({ description: "percentOfTotal, runningTotal or rank." }),
          measure: z.string(),
          within: z.array(z.string()).max(20).optional(),
          along: z.string().optional(),
          direction: z.string().optional(),
          name: z.string().max(100).optional(),
        }),
      )
      .max(20)
      .optional()
      .meta({ description: 'Window calculations over the aggregated rows (docs/data-model.md, "Calculations over the rows").' }),
    groupLimit: z
      .strictObject({
        within: z.array(z.string()).min(1).max(20),
        limit: z.number(),
        order: z
          .array(z.tuple([z.string(), z.string()]))
          .max(20)
          .optional(),
      })
      .optional()
      .meta({ description: "Keeps the first `limit` rows of each group of `within` values (top N per group)." }),
    calculatedFields: z
      .array(CalculatedFieldSchema)
      .max(MAX_CALCULATED_FIELDS)
      .optional()
      .meta({ description: 'Fields computed by formulas over the view\'s members, used as `<view>.<name>` (docs/data-model.md, "Calculated fields").' }),
  })
  .meta({
    id: "SemanticQuery",
    description: "A semantic query: members are `<view>.<member>` (docs/data-model.md).",
  });

// A well-formed query (typed operators and granularities) is always a valid wire query.
type Assignable<T extends U, U> = T;
export type SemanticQueryIsWireQuery = Assignable<SemanticQuery, z.input<typeof SemanticQuerySchema>>;

/** Body of `POST …/query` and `…/query/sql`. */
export const QueryInputSchema = z
  .object({
    query: SemanticQuerySchema,
    fillMissingRows: FillMissingRows.nullable().optional(),
    periodComparisons: z.array(PeriodComparison).max(20).nullable().optional(),
    cache: z.enum(["default", "bypass"]).optional().meta({ description: "`bypass` re-runs the query (a refresh); the fresh result is cached." }),
    locale: ContentLocale.optional().meta({
      description:
        "Show content in this locale (docs/translation.md): member titles of the annotation translated and `valueLabels` per dimension column; rows stay raw. Default: the embed session's locale, else none.",
    }),
    export: z.object({ format: DataExportFormat }).strict().optional().meta({
      description:
        "The rows are for a file in this format (an export). An embed session whose `settings.allowExport` does not grant the format is refused with 403 `export_format_not_allowed` and the query does not run.",
    }),
  })
  .strict()
  .meta({ id: "QueryInput" });

/** A query request with the query in its typed form. */
export interface QueryRequest {
  query: SemanticQuery;
  fillMissingRows?: FillMissingRows | null;
  periodComparisons?: PeriodComparison[] | null;
  cache?: "default" | "bypass";
  /** The locale content is shown in (docs/translation.md). */
  locale?: string;
  /** The rows are for an export in this format (checked against the embed session's grant). */
  export?: { format: DataExportFormat };
}
export type QueryRequestIsQueryInput = Assignable<QueryRequest, z.input<typeof QueryInputSchema>>;

const MemberAnnotationSchema = z
  .object({
    title: z.string(),
    shortTitle: z.string(),
    type: z.string(),
    format: z.string().optional(),
    valueLabels: z.record(z.string(), z.string()).optional().meta({
      description: "A dimension column's raw values of these rows → the text shown for them in the request's locale (translations, country names); plain text.",
    }),
    timePart: z.enum(timeParts).optional().meta({
      description: "A time dimension read as a part of time: its integers are a weekday (1 Monday), an hour, a day, an ISO week, a month or a quarter.",
    }),
  })
  .passthrough();

const ColumnRangeSchema = z.object({ from: z.string(), to: z.string() }).meta({ description: "Wall time, end exclusive." });

/** What every column made of a measure says besides its titles: the measure column it reads. */
const ofMeasure = { measure: z.string().meta({ description: "The measure column this column is made of." }) };

/**
 * A column of `compare` (period against period): which measure, which of its four outputs (the
 * discriminant: `baseline`, `current`, `change`, `relativeChange`), and the ranges it reads.
 */
export const CompareColumnAnnotationSchema = MemberAnnotationSchema.extend({
  ...ofMeasure,
  output: z.enum(compareOutputs),
  ranges: z.object({ baseline: ColumnRangeSchema, current: ColumnRangeSchema }),
}).meta({ id: "CompareColumnAnnotation" });
export type CompareColumnAnnotation = z.infer<typeof CompareColumnAnnotationSchema>;

/** The outputs of a period comparison, in order: the earlier value, the change, the relative change. */
export const periodComparisonOutputs = ["previous", "change", "percent_change"] as const;
export type PeriodComparisonOutput = (typeof periodComparisonOutputs)[number];

/** A column of `periodComparisons`: which measure, and which output (the discriminant). */
export const PeriodComparisonColumnAnnotationSchema = MemberAnnotationSchema.extend({
  ...ofMeasure,
  output: z.enum(periodComparisonOutputs),
}).meta({ id: "PeriodComparisonColumnAnnotation" });
export type PeriodComparisonColumnAnnotation = z.infer<typeof PeriodComparisonColumnAnnotationSchema>;

/** A column of `calculations`: which measure, which calculation (the discriminant), and the key columns it restarts at. */
export const CalculationColumnAnnotationSchema = MemberAnnotationSchema.extend({
  ...ofMeasure,
  calculation: z.enum(calculationTypes),
  within: z.array(z.string()).meta({ description: "Key columns that start a new total or ranking." }),
}).meta({ id: "CalculationColumnAnnotation" });
export type CalculationColumnAnnotation = z.infer<typeof CalculationColumnAnnotationSchema>;

/** Answer of `POST …/query`: rows keyed by member, and per-column annotations. */
export const QueryResultSchema = z
  .object({
    data: z.array(z.record(z.string(), z.unknown())),
    annotation: z
      .object({
        measures: z.record(z.string(), MemberAnnotationSchema),
        dimensions: z.record(z.string(), MemberAnnotationSchema),
        timeDimensions: z.record(z.string(), MemberAnnotationSchema),
        periodComparisons: z
          .record(z.string(), PeriodComparisonColumnAnnotationSchema)
          .optional()
          .meta({ description: "With `periodComparisons`: each output column, keyed by its name." }),
        compare: z
          .record(z.string(), CompareColumnAnnotationSchema)
          .optional()
          .meta({ description: "With `compare`: each measure's baseline, current, change and relativeChange columns (and no plain measure column)." }),
        calculations: z
          .record(z.string(), CalculationColumnAnnotationSchema)
          .optional()
          .meta({ description: "With `calculations`: each calculation's column." }),
      })
      .passthrough(),
    fromCache: z.boolean(),
  })
  .meta({ id: "QueryResult" });
export type QueryResult = z.infer<typeof QueryResultSchema>;

/** Most queries one batch request may carry (a dashboard's widgets on screen at once). */
export const QUERY_BATCH_MAX = 64;

export const QueryBatchInputSchema = z
  .object({
    queries: z
      .array(QueryInputSchema)
      .min(1)
      .max(QUERY_BATCH_MAX)
      .meta({ description: "Queries run at once under the caller's row-level security; each is what `runQuery` takes." }),
  })
  .strict()
  .meta({ id: "QueryBatchInput" });

/** One line of a batch answer: the index of the query in the request, and what `runQuery` would have answered for it. */
export const QueryBatchLineSchema = z
  .object({
    index: z.number().int().min(0),
    status: z.number().int().meta({ description: "The status `runQuery` would have answered: 200, or the error's." }),
    body: z.union([QueryResultSchema, z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() })]),
  })
  .meta({ id: "QueryBatchLine" });
export type QueryBatchLine = z.infer<typeof QueryBatchLineSchema>;
export type QueryAnnotation = QueryResult["annotation"];
export type MemberAnnotation = z.infer<typeof MemberAnnotationSchema>;

/** Most candidate dimensions one explain request may name. */
export const EXPLAIN_MAX_CANDIDATES = 20;

/**
 * Body of `POST …/query/explain`: which values of the candidate dimensions moved a measure most
 * between two date ranges of a time dimension, or between two segments of the rows (two sets of
 * filters: "Germany against France") (docs/data-model.md, "Explaining a change").
 */
/**
 * One side of an explanation compared by filters instead of dates: the rows these filters keep
 * ("Country = DE" against "Country = FR").
 */
export const ExplainSegmentSchema = z
  .strictObject({
    filters: z.array(QueryFilterSchema).min(1).max(20).meta({ description: "The rows of this side: filters that all hold (or/and groups allowed)." }),
  })
  .meta({ id: "ExplainSegment" });
export type ExplainSegment = z.infer<typeof ExplainSegmentSchema>;

export const ExplainInputSchema = z
  .strictObject({
    measure: z.string().max(200).meta({ description: "An additive measure (count or sum)." }),
    timeDimension: z
      .string()
      .max(200)
      .optional()
      .meta({ description: "The time dimension of two date ranges; required with them, not allowed with two segments." }),
    baseline: z
      .union([z.string(), z.array(z.string()), ExplainSegmentSchema])
      .meta({ description: "What is compared against: a date range ([from, to] or relative, before) or a segment ({filters})." }),
    current: z
      .union([z.string(), z.array(z.string()), ExplainSegmentSchema])
      .meta({ description: "What is compared: a date range (after) or a segment ({filters}); the same kind as baseline." }),
    candidates: z.array(z.string().max(200)).min(1).max(EXPLAIN_MAX_CANDIDATES).meta({ description: "Dimensions whose values may explain the change." }),
    filters: z.array(QueryFilterSchema).max(100).optional().meta({ description: "Filters both sides share." }),
    limit: z.number().optional().meta({ description: "Contributors returned, 1 … 100; default 10." }),
    timezone: z.string().optional(),
  })
  .meta({ id: "ExplainInput" });
export type ExplainInput = z.infer<typeof ExplainInputSchema>;

const ExplainFiguresSchema = z.object({
  baseline: z.number(),
  current: z.number(),
  change: z.number(),
  relativeChange: z.number().nullable().meta({ description: "change / baseline; null when the baseline is 0." }),
});

/** Answer of `POST …/query/explain`. */
export const ExplainResultSchema = z
  .object({
    measure: z.string(),
    timeDimension: z.string().optional().meta({ description: "With two date ranges: their time dimension." }),
    ranges: z
      .object({
        baseline: z.object({ from: z.string(), to: z.string() }),
        current: z.object({ from: z.string(), to: z.string() }),
      })
      .optional()
      .meta({ description: "With two date ranges: the ranges compared, as wall time, end exclusive." }),
    segments: z
      .object({ baseline: ExplainSegmentSchema, current: ExplainSegmentSchema })
      .optional()
      .meta({ description: "With two segments: the filters of each side, as asked." }),
    total: ExplainFiguresSchema,
    contributors: z.array(
      ExplainFiguresSchema.extend({
        dimension: z.string(),
        value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
        share: z.number().nullable().meta({ description: "This value's change / the total change; null when the total did not change." }),
      }),
    ),
  })
  .meta({ id: "ExplainResult" });
export type ExplainResult = z.infer<typeof ExplainResultSchema>;

/** Answer of `POST …/query/sql`. */
export const CompiledSqlSchema = z.object({ sql: z.string(), params: z.array(z.union([z.string(), z.number(), z.boolean()])) }).meta({ id: "CompiledSql" });

/** Body of `POST …/query/values`: distinct values of a dimension, for filter pickers. */
export const DistinctValuesInputSchema = z
  .object({
    member: z.string().min(3).max(200),
    search: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    locale: ContentLocale.optional().meta({
      description: "Label the values in this locale (`labels`: translations, country names; docs/translation.md). Default: the embed session's locale.",
    }),
  })
  .strict()
  .meta({ id: "DistinctValuesInput" });
export type DistinctValuesInput = z.infer<typeof DistinctValuesInputSchema>;

export const DistinctValuesSchema = z
  .object({
    values: z.array(z.unknown()),
    labels: z.record(z.string(), z.string()).optional().meta({
      description: "Of the values returned, those with a label in the locale: raw value → text shown (plain text). The raw value is what a filter takes.",
    }),
  })
  .meta({ id: "DistinctValues" });

/** A member of `GET …/meta`: a measure or dimension the caller can query. */
export const DataModelMetaMemberSchema = z
  .object({
    name: z.string().meta({ description: "Fully qualified: `<view>.<member>`." }),
    title: z.string(),
    shortTitle: z.string(),
    type: z.enum(["string", "number", "boolean", "time"]),
    format: z.enum(["currency", "percent", "number"]).optional(),
    description: z.string().optional(),
    measureType: z.string().optional().meta({ description: "A measure's aggregation (`count`, `sum`, `avg`, …)." }),
    primaryKey: z.boolean().optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "DataModelMetaMember" });
export type DataModelMetaMember = z.infer<typeof DataModelMetaMemberSchema>;

/** A view (or cube) of `GET …/meta` with the members the caller can query. */
export const DataModelMetaSourceSchema = z
  .object({
    name: z.string(),
    kind: z.enum(["view", "cube"]),
    title: z.string(),
    description: z.string().optional(),
    measures: z.array(DataModelMetaMemberSchema),
    dimensions: z.array(DataModelMetaMemberSchema),
  })
  .meta({ id: "DataModelMetaSource" });
export type DataModelMetaSource = z.infer<typeof DataModelMetaSourceSchema>;

/** Answer of `GET …/meta`: the views and members the caller can query. */
export const DataModelMetaSchema = z.object({ sources: z.array(DataModelMetaSourceSchema) }).meta({ id: "DataModelMeta" });

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
  compare?: CompareRanges;
  calculations?: Calculation[];
  groupLimit?: GroupLimit;
  calculatedFields?: CalculatedField[];
}
