import { DomainError } from "../domain/errors";
import type { SqlDialect } from "../semantic/compile-query";

/** Options of one `DataSource.query` call. */
export interface QueryRunOptions {
  /** Aborting cancels the database query and rejects with `QueryCancelledError`. */
  signal?: AbortSignal;
  /** Past this, the database query is cancelled and the call rejects with `QueryTimeoutError`. */
  timeoutMs?: number;
}

export type ResultRow = Record<string, unknown>;

/** How a data source reaches a SQL server over the network (Postgres, MySQL / MariaDB). */
export interface SqlServerOptions {
  host: string;
  port?: number;
  database: string;
  user: string;
  password?: string;
  /** true, or tls options, to connect over TLS. */
  ssl?: boolean | { rejectUnauthorized?: boolean; ca?: string };
  /** Pool size; default 4. */
  poolSize?: number;
  /** Server-side limit for every statement; a backstop to per-query `timeoutMs`. */
  statementTimeoutMs?: number;
  /** How long to wait for a connection; default 5000 ms. */
  connectionTimeoutMs?: number;
}

/** A warehouse the semantic layer runs compiled SQL on. Rows come back JSON-safe. */
export interface DataSource {
  readonly dialect: SqlDialect;
  query(sql: string, params: readonly unknown[], options?: QueryRunOptions): Promise<ResultRow[]>;
  /**
   * Runs statements (no parameters, no result) in one transaction on one connection: all of
   * them or, when one fails or the signal aborts before the next, none. Readers see the data as
   * it was until the commit.
   */
  transaction(statements: readonly string[], options?: Pick<QueryRunOptions, "signal">): Promise<void>;
  close(): Promise<void>;
}

/**
 * The statements of `DataSource.transaction` on one connection (`exec` runs one): begun, each
 * run unless the signal has aborted, committed; on any failure rolled back and the failure
 * rethrown. `onRollbackFailed` hears of a rollback that failed too (drop the connection then).
 */
export async function runInTransaction(
  exec: (sql: string) => Promise<unknown>,
  statements: readonly string[],
  options: { signal?: AbortSignal | undefined; begin?: string; onRollbackFailed?: () => void } = {},
): Promise<void> {
  await exec(options.begin ?? "BEGIN");
  try {
    for (const sql of statements) {
      if (options.signal?.aborted) throw new QueryCancelledError();
      await exec(sql);
    }
    await exec("COMMIT");
  } catch (e) {
    await exec("ROLLBACK").catch(() => options.onRollbackFailed?.());
    throw e;
  }
}

/** The data source cannot be reached or opened (→ 503 `datasource_unavailable`). */
export class DatasourceUnavailableError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("datasource_unavailable", message, options);
    this.name = "DatasourceUnavailableError";
  }
}

/** The query ran past its time limit and was cancelled in the database (→ 504 `query_timeout`). */
export class QueryTimeoutError extends DomainError {
  constructor(
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super("query_timeout", `Query cancelled after ${timeoutMs} ms`, options);
    this.name = "QueryTimeoutError";
  }
}

/** The caller aborted; the database query was cancelled. 499 = client closed the request. */
export class QueryCancelledError extends DomainError {
  constructor(options?: { cause?: unknown }) {
    super("query_cancelled", "Query cancelled", options);
    this.name = "QueryCancelledError";
  }
}

/** The database rejected or failed the query (→ 500 `query_failed`; message is the database's). */
export class QueryExecutionError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("query_failed", message, options);
    this.name = "QueryExecutionError";
  }
}

/**
 * The database could not compute a value from the data (→ 422 `query_value_error`): an overflow
 * or a value out of range (a calculated field's `amount * 1e300`), a text that does not convert.
 * Postgres's and MySQL's SQLSTATE class 22 (data exception) and DuckDB's Out of Range and
 * Conversion errors.
 */
export class QueryValueError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("query_value_error", message, options);
    this.name = "QueryValueError";
  }
}

/** Formats a naive timestamp's wall clock as "YYYY-MM-DDTHH:mm:ss.sss". */
export function formatNaiveTimestamp(utcFieldsDate: Date): string {
  return utcFieldsDate.toISOString().slice(0, 23);
}

/** BIGINT-like values become numbers when exact, strings otherwise (JSON has no bigint). */
export function bigintToJson(value: bigint): number | string {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
}
