export { DataModelError, QueryValidationError, type DataModelProblem, type QueryProblem, type QueryProblemCode } from "./errors";
export {
  loadDataModel,
  humanizeName,
  type DataModel,
  type DataModelFile,
  type Cube,
  type View,
  type Dimension,
  type Measure,
  type AccessPolicy,
  type MemberFormat,
} from "./data-model";
export {
  SemanticQuerySchema,
  QueryFilterSchema,
  filterOperators,
  granularities,
  MAX_QUERY_LIMIT,
  DEFAULT_QUERY_LIMIT,
  type SemanticQuery,
  type ValidatedQuery,
  type QueryFilter,
  type MemberFilter,
  type FilterOperator,
  type FilterValue,
  type Granularity,
  type TimeDimension,
} from "../../schema/semantic-query";
export { validateQuery, type ValidateQueryOptions } from "./validate-query";
export {
  compileQuery,
  quoteIdentifier,
  comparisonUnits,
  type CompileQueryOptions,
  type CompiledQuery,
  type FillMissingRows,
  type PeriodComparison,
  type QueryAnnotation,
  type MemberAnnotation,
  type PeriodComparisonAnnotation,
  type SqlDialect,
} from "./compile-query";
export { securityContextSchema, platformRoles, type SecurityContext, type PlatformRole, type UserAttributeValue } from "./security-context";
export { resolveRelativeRange, resolveDateRange, isValidTimeZone } from "./date-range";
export { explainChange, type ExplainOptions } from "./explain";
export { checkWorkbookCalculatedFields } from "./formula/workbook-fields";
export {
  createQueryEngine,
  type QueryEngine,
  type QueryEngineOptions,
  type LoadOptions,
  type LoadResult,
  type MetaSource,
  type MetaMember,
  type DistinctValuesOptions,
} from "./query-engine";
export { ROLLUP_SCHEMA, type BuiltRollup } from "./compiler/rollup-plan";
export type { Rollup } from "./rollup-definition";
