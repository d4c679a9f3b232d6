import type { FillMissingRows, PeriodComparison } from "../../schema/dashboard";
import { annotateQuery, type QueryAnnotation } from "./compiler/annotation";
import type { SqlDialect } from "./compiler/dialect";
import { dialectFor } from "./compiler/dialects";
import type { ParameterValue } from "./compiler/parameters";
import { planQuery } from "./compiler/plan";
import { answerFromRollup, type BuiltRollup } from "./compiler/rollup-plan";
import { writeStatement } from "./compiler/statement";
import type { DataModel } from "./data-model";
import type { SemanticQuery, ValidatedQuery } from "../../schema/semantic-query";
import type { SecurityContext } from "./security-context";
import { validateQuery } from "./validate-query";

export type { FillMissingRows, PeriodComparison } from "../../schema/dashboard";
export type { MemberAnnotation, PeriodComparisonAnnotation, QueryAnnotation } from "./compiler/annotation";
export { quoteIdentifier, type SqlDialect } from "./compiler/dialect";
export { comparisonUnits } from "./compiler/plan";

/** Options of `compileQuery`. */
export interface CompileQueryOptions {
  /** SQL flavour of the data source. */
  dialect: SqlDialect;
  /** Viewer; access policies of every cube and view in the query are applied for it. */
  securityContext: SecurityContext;
  /** Clock for relative date ranges; defaults to now. */
  now?: Date;
  /** ReportSnapshot.fillMissingRows: one row per time bucket (× other dimension values). */
  fillMissingRows?: FillMissingRows | null;
  /** ReportSnapshot.periodComparisons: measures over shifted periods, added as columns. */
  periodComparisons?: PeriodComparison[] | null;
  /** Built rollups the query may be answered from (docs/data-model.md "Rollups"); none by default. */
  rollups?: readonly BuiltRollup[];
}

export interface CompiledQuery {
  sql: string;
  /** Positional values for $1, $2, … (DuckDB, Postgres), or for each `?` in order (MySQL). */
  params: ParameterValue[];
  annotation: QueryAnnotation;
  /** Result column names in order. */
  columns: string[];
}

/**
 * Compiles a semantic query into one SQL statement with positional parameters. The query is
 * validated first (throws `QueryValidationError`); the viewer's access policies are part of
 * the statement, so nothing that runs this SQL can skip them.
 */
export function compileQuery(model: DataModel, input: SemanticQuery | unknown, options: CompileQueryOptions): CompiledQuery {
  const now = options.now ?? new Date();
  const query = validateQuery(model, input, { now });
  return compileValidatedQuery(model, query, { ...options, now });
}

/** @internal Compiles a query already returned by `validateQuery`. */
export function compileValidatedQuery(model: DataModel, query: ValidatedQuery, options: CompileQueryOptions & { now: Date }): CompiledQuery {
  const plan = planQuery(model, query, options);
  const dialect = dialectFor(options.dialect);
  const answer = options.rollups ? answerFromRollup(model, query, plan, options.rollups) : undefined;
  const { sql, params } = dialect.bindPositional(writeStatement(answer?.plan ?? plan, dialect));
  const annotation = annotateQuery(plan);
  return { sql, params, annotation: answer ? { ...annotation, rollup: answer.rollup } : annotation, columns: plan.columns };
}
