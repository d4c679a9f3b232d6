import type { Connection, ConnectionOptions, FieldPacket, Pool, PoolConnection, PoolOptions, RowDataPacket } from "mysql2/promise";
import {
  DatasourceUnavailableError,
  QueryCancelledError,
  QueryExecutionError,
  QueryTimeoutError,
  QueryValueError,
  type DataSource,
  type QueryRunOptions,
  type ResultRow,
  type SqlServerOptions,
  runInTransaction,
} from "./data-source";

/**
 * Options of `createMySqlDataSource`; `statementTimeoutMs` is MariaDB's `max_statement_time`,
 * MySQL's `max_execution_time`.
 */
export type MySqlDataSourceOptions = SqlServerOptions;

/** What `execute` binds: the values of the statement's `?`s in order. */
type ExecuteValues = NonNullable<Parameters<PoolConnection["execute"]>[1]>;

/** Prepared statements kept per connection (the server's `max_prepared_stmt_count` is shared by all its clients). */
const PREPARED_PER_CONNECTION = 256;
/** Rows a fill's recursive series may reach (both servers stop a recursion at 1000 by default, MariaDB without an error). */
const RECURSION_LIMIT = 100_000_000;

/** Column types by their protocol number (mysql2 `FieldPacket.columnType`). */
const TYPE = { DECIMAL: 0, LONGLONG: 8, TIMESTAMP: 7, DATE: 10, DATETIME: 12, NEWDATE: 14, NEWDECIMAL: 246 } as const;

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ECONNRESET",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "EPIPE",
  "PROTOCOL_CONNECTION_LOST",
  "ER_ACCESS_DENIED_ERROR",
  "ER_DBACCESS_DENIED_ERROR",
  "ER_BAD_DB_ERROR",
  "ER_CON_COUNT_ERROR",
  "ER_TOO_MANY_USER_CONNECTIONS",
  "ER_SERVER_SHUTDOWN",
  "ER_HOST_NOT_PRIVILEGED",
]);
/** Error numbers of statement timeouts: MariaDB's `max_statement_time` (1969) and MySQL's `max_execution_time` (3024). */
const STATEMENT_TIMEOUT_ERRNOS = new Set([1969, 3024]);

interface DriverError {
  code?: string;
  errno?: number;
  sqlState?: string;
  message?: string;
  fatal?: boolean;
}

function isUnavailable(e: unknown): boolean {
  const err = e as DriverError;
  return (err.code !== undefined && UNAVAILABLE_CODES.has(err.code)) || /connect ETIMEDOUT|Connection lost|closed state/i.test(err.message ?? "");
}

/** "2024-03-31 01:30:00.123456" → "2024-03-31T01:30:00.123" (and "…Z" for TIMESTAMP, an instant read in UTC). */
function isoTimestamp(text: string, instant: boolean): string {
  const [date, time = "00:00:00"] = text.split(" ");
  const [hms, frac = ""] = time.split(".");
  return `${date}T${hms}.${(frac + "000").slice(0, 3)}${instant ? "Z" : ""}`;
}

function jsonValue(value: unknown, type: number | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") {
    switch (type) {
      case TYPE.DECIMAL:
      case TYPE.NEWDECIMAL:
        return Number(value);
      case TYPE.LONGLONG: {
        const n = Number(value);
        return Number.isSafeInteger(n) ? n : value;
      }
      case TYPE.DATETIME:
        return isoTimestamp(value, false);
      case TYPE.TIMESTAMP:
        return isoTimestamp(value, true);
      default:
        return value;
    }
  }
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  // Binary strings (a BINARY collation, some functions' results) come as bytes.
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  return value;
}

function toJsonRows(rows: Record<string, unknown>[], fields: FieldPacket[]): ResultRow[] {
  const types = new Map(fields.map((f) => [f.name, f.columnType]));
  return rows.map((row) => {
    const out: ResultRow = {};
    for (const [name, value] of Object.entries(row)) out[name] = jsonValue(value, types.get(name));
    return out;
  });
}

/**
 * A MySQL or MariaDB server through a mysql2 pool. Statements are prepared on the server and
 * their values bound (never written into the SQL). Timeouts and aborts stop the running
 * statement with `KILL QUERY` from a separate short-lived connection (the pool may be full).
 */
export function createMySqlDataSource(options: MySqlDataSourceOptions): DataSource {
  const config: PoolOptions = {
    host: options.host,
    port: options.port ?? 3306,
    database: options.database,
    user: options.user,
    password: options.password,
    ssl: options.ssl === true ? {} : options.ssl === false ? undefined : options.ssl,
    connectionLimit: Math.max(1, options.poolSize ?? 4),
    connectTimeout: options.connectionTimeoutMs ?? 5000,
    // Values leave the driver as text and become JSON here, by column type.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    // Naive DATETIME columns hold UTC, and TIMESTAMP columns are read in UTC.
    timezone: "Z",
    multipleStatements: false,
    maxPreparedStatements: PREPARED_PER_CONNECTION,
    charset: "utf8mb4",
  };
  // The driver is loaded with the first MySQL source a process opens, not with the server.
  const driver = import("mysql2/promise").then((m) => m.default);
  const pool: Promise<Pool> = driver.then((mysql) => {
    const created = mysql.createPool(config);
    // An idle connection dying (server restart) must not crash the process; the next query reconnects.
    created.on("connection", (conn) => conn.on("error", () => {}));
    return created;
  });
  // A driver that fails to load fails each query that waits on it (as unavailable), never the process.
  pool.catch(() => {});
  // By the driver's connection: the pool hands out a new wrapper of it each time.
  const prepared = new WeakSet<object>();

  /**
   * Session settings, once per connection: UTC, the precision of DECIMAL division, the recursion
   * limit and the statement timeout (each server spells the last two its own way).
   */
  async function prepareSession(conn: PoolConnection) {
    if (prepared.has(conn.connection)) return;
    const [rows] = await conn.query<RowDataPacket[]>("SELECT VERSION() AS v");
    const mariadb = /mariadb/i.test(String(rows[0]?.v ?? ""));
    // A DECIMAL divided keeps 30 more decimals, not 4 (a sum of amounts over a count reads as in the other engines).
    const settings = ["time_zone = '+00:00'", "div_precision_increment = 30"];
    const timeout = options.statementTimeoutMs;
    if (mariadb) {
      settings.push(`max_recursive_iterations = ${RECURSION_LIMIT}`);
      if (timeout) settings.push(`max_statement_time = ${Math.max(0.001, timeout / 1000)}`);
    } else {
      settings.push(`cte_max_recursion_depth = ${RECURSION_LIMIT}`);
      if (timeout) settings.push(`max_execution_time = ${Math.ceil(timeout)}`);
    }
    // Numbers only (constants and a validated option), nothing from a query.
    await conn.query(`SET SESSION ${settings.join(", ")}`);
    prepared.add(conn.connection);
  }

  async function killQuery(threadId: number) {
    let killer: Connection | undefined;
    try {
      killer = await (await driver).createConnection({ ...config, connectionLimit: undefined, maxPreparedStatements: undefined } as ConnectionOptions);
      killer.on("error", () => {});
      await killer.query(`KILL QUERY ${Number(threadId)}`);
    } catch {
      // Best effort: the statement timeout still bounds the query.
    } finally {
      await killer?.end().catch(() => {});
    }
  }

  /** A pooled connection with the session prepared. */
  async function connect(): Promise<PoolConnection> {
    let conn: PoolConnection | undefined;
    try {
      conn = await (await pool).getConnection();
      await prepareSession(conn);
      return conn;
    } catch (cause) {
      conn?.destroy();
      throw new DatasourceUnavailableError(`MySQL is unavailable: ${(cause as Error).message}`, { cause });
    }
  }

  return {
    dialect: "mysql",
    async query(sql: string, params: readonly unknown[], run: QueryRunOptions = {}): Promise<ResultRow[]> {
      if (run.signal?.aborted) throw new QueryCancelledError();
      const conn = await connect();
      const threadId = conn.threadId;
      let reason: "timeout" | "abort" | undefined;
      let cancelling: Promise<void> | undefined;
      const stop = (why: "timeout" | "abort") => {
        if (reason) return;
        reason = why;
        cancelling = killQuery(threadId);
      };
      const timer = run.timeoutMs !== undefined ? setTimeout(() => stop("timeout"), run.timeoutMs) : undefined;
      const onAbort = () => stop("abort");
      run.signal?.addEventListener("abort", onAbort, { once: true });
      let broken = false;
      try {
        const [rows, fields] = await conn.execute<RowDataPacket[]>(sql, [...params] as ExecuteValues);
        if (reason === "timeout") throw new QueryTimeoutError(run.timeoutMs!);
        if (reason === "abort") throw new QueryCancelledError();
        // A statement without a result set (a rollup build's CREATE TABLE, an INSERT) answers no rows.
        return Array.isArray(rows) && fields ? toJsonRows(rows, fields) : [];
      } catch (e) {
        if (e instanceof QueryTimeoutError || e instanceof QueryCancelledError) throw e;
        const err = e as DriverError;
        if (reason === "timeout") throw new QueryTimeoutError(run.timeoutMs!, { cause: e });
        if (reason === "abort") throw new QueryCancelledError({ cause: e });
        if (err.errno !== undefined && STATEMENT_TIMEOUT_ERRNOS.has(err.errno)) throw new QueryTimeoutError(options.statementTimeoutMs ?? 0, { cause: e });
        if (err.fatal || isUnavailable(e)) {
          broken = true;
          throw new DatasourceUnavailableError(`MySQL is unavailable: ${err.message}`, { cause: e });
        }
        // SQLSTATE class 22: data exception (a value out of range, a text that does not convert).
        if (err.sqlState?.startsWith("22")) throw new QueryValueError(err.message ?? "Value error", { cause: e });
        throw new QueryExecutionError(err.message ?? "Query failed", { cause: e });
      } finally {
        if (timer) clearTimeout(timer);
        run.signal?.removeEventListener("abort", onAbort);
        // A KILL QUERY that lands after the statement finished could hit the next one on this
        // connection; wait for it, and drop the connection to be sure.
        if (cancelling) {
          await cancelling;
          broken = true;
        }
        if (broken) conn.destroy();
        else conn.release();
      }
    },
    async transaction(statements: readonly string[], run: Pick<QueryRunOptions, "signal"> = {}): Promise<void> {
      if (run.signal?.aborted) throw new QueryCancelledError();
      const conn = await connect();
      let broken = false;
      try {
        await runInTransaction((sql) => conn.query(sql), statements, {
          signal: run.signal,
          begin: "START TRANSACTION",
          onRollbackFailed: () => (broken = true),
        });
      } catch (e) {
        if (e instanceof QueryCancelledError) throw e;
        const err = e as DriverError;
        if (err.fatal || isUnavailable(e)) {
          broken = true;
          throw new DatasourceUnavailableError(`MySQL is unavailable: ${err.message}`, { cause: e });
        }
        throw new QueryExecutionError(err.message ?? "Query failed", { cause: e });
      } finally {
        if (broken) conn.destroy();
        else conn.release();
      }
    },
    async close() {
      await (await pool.catch(() => null))?.end();
    },
  };
}
