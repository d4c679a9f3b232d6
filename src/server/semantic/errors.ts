import { DomainError } from "../domain/errors";

/** One problem found in the data model files. `path` is the YAML path inside `file`. */
export interface DataModelProblem {
  file: string;
  path: (string | number)[];
  line?: number;
  message: string;
}

/**
 * The data model files are invalid. The whole model is rejected at once so that a broken
 * file never half-applies; `problems` lists every issue found, not just the first.
 */
export class DataModelError extends DomainError {
  constructor(readonly problems: DataModelProblem[]) {
    super(
      "data_model_invalid",
      `Invalid data model: ${problems
        .slice(0, 5)
        .map((p) => `${p.file}${p.line ? `:${p.line}` : ""} ${p.path.join(".")}: ${p.message}`)
        .join("; ")}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ""}`,
      { details: problems },
    );
    this.name = "DataModelError";
  }
}

/** Stable codes of query problems; the HTTP layer passes them through in `details`. */
export type QueryProblemCode =
  | "invalid_shape"
  | "unknown_member"
  | "wrong_member_kind"
  | "bad_operator"
  | "wrong_value_type"
  | "value_out_of_range"
  | "wrong_value_count"
  | "malformed_date_range"
  | "measure_filter_not_allowed"
  | "limit_out_of_range"
  | "bad_timezone"
  | "empty_query"
  | "unjoinable_members"
  | "fan_out"
  | "bad_option";

export interface QueryProblem {
  /** JSON path of the offending item inside the query (or the compile options). */
  path: (string | number)[];
  code: QueryProblemCode;
  message: string;
}

/** The query (or a compile option) is invalid; maps to 400 `validation_failed`. */
export class QueryValidationError extends DomainError {
  declare readonly details: QueryProblem[];
  constructor(details: QueryProblem[]) {
    super(
      "validation_failed",
      `Invalid query: ${details
        .slice(0, 5)
        .map((d) => `${d.path.length ? d.path.join(".") + ": " : ""}${d.message}`)
        .join("; ")}${details.length > 5 ? ` (and ${details.length - 5} more)` : ""}`,
      { details },
    );
    this.name = "QueryValidationError";
  }
}
