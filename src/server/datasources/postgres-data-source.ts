import pg from "pg";
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

/** Options of `createPostgresDataSource`; `statementTimeoutMs` is Postgres's `statement_timeout`. */
export type PostgresDataSourceOptions = SqlServerOptions;

// Result values are made JSON-safe by type OID, per pool (never the global parsers, which
// other Postgres users in this process rely on).
const OID = { INT8: 20, NUMERIC: 1700, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 } as const;

function parseInt8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}
function parseTimestamp(text: string): string {
  // "2024-03-31 01:30:00.123456" → "2024-03-31T01:30:00.123"
  const [date, time = "00:00:00"] = text.split(" ");
  const [hms, frac = ""] = time.split(".");
  return `${date}T${hms}.${(frac + "000").slice(0, 3)}`;
}
function parseTimestamptz(text: string): string {
  const d = new Date(text.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00"));
  return Number.isNaN(d.getTime()) ? text : d.toISOString();
}

const typeParsers = {
  getTypeParser(oid: number, format?: string): (text: string) => unknown {
    switch (oid) {
      case OID.INT8:
        return parseInt8;
      case OID.NUMERIC:
        return (t: string) => Number(t);
      case OID.DATE:
        return (t: string) => t;
      case OID.TIMESTAMP:
        return parseTimestamp;
      case OID.TIMESTAMPTZ:
        return parseTimestamptz;
      default:
        return pg.types.getTypeParser(oid, (format ?? "text") as "text");
    }
  },
};

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ECONNRESET",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "28P01",
  "28000",
  "3D000",
  "53300",
]);

function isUnavailable(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return (
    (err.code !== undefined && UNAVAILABLE_CODES.has(err.code)) ||
    /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED/i.test(err.message ?? "")
  );
}

/**
 * A Postgres server through a `pg` pool. Timeouts and aborts cancel the running statement
 * with `pg_cancel_backend` from a separate short-lived connection (the pool may be full).
 */
export function createPostgresDataSource(options: PostgresDataSourceOptions): DataSource {
  const config: pg.PoolConfig = {
    host: options.host,
    port: options.port ?? 5432,
    database: options.database,
    user: options.user,
    password: options.password,
    ssl: options.ssl,
    max: Math.max(1, options.poolSize ?? 4),
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    // Naive timestamp columns are read as UTC, the same on every server.
    options: "-c TimeZone=UTC",
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  };
  const pool = new pg.Pool(config);
  // An idle client dying (server restart) must not crash the process; the next query reconnects.
  pool.on("error", () => {});

  async function cancelBackend(pid: number) {
    const client = new pg.Client({ ...config, statement_timeout: undefined } as pg.ClientConfig);
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("SELECT pg_cancel_backend($1)", [pid]);
    } catch {
      // Best effort: statement_timeout still bounds the query.
    } finally {
      await client.end().catch(() => {});
    }
  }

  async function connect(): Promise<pg.PoolClient> {
    try {
      return await pool.connect();
    } catch (cause) {
      throw new DatasourceUnavailableError(`Postgres is unavailable: ${(cause as Error).message}`, { cause });
    }
  }

  return {
    dialect: "postgres",
    async query(sql: string, params: readonly unknown[], run: QueryRunOptions = {}): Promise<ResultRow[]> {
      if (run.signal?.aborted) throw new QueryCancelledError();
      const client = await connect();
      const pid = (client as unknown as { processID: number }).processID;
      let reason: "timeout" | "abort" | undefined;
      let cancelling: Promise<void> | undefined;
      const stop = (why: "timeout" | "abort") => {
        if (reason) return;
        reason = why;
        cancelling = cancelBackend(pid);
      };
      const timer = run.timeoutMs !== undefined ? setTimeout(() => stop("timeout"), run.timeoutMs) : undefined;
      const onAbort = () => stop("abort");
      run.signal?.addEventListener("abort", onAbort, { once: true });
      let broken = false;
      try {
        const result = await client.query({ text: sql, values: params as unknown[], types: typeParsers });
        if (reason === "timeout") throw new QueryTimeoutError(run.timeoutMs!);
        if (reason === "abort") throw new QueryCancelledError();
        return result.rows as ResultRow[];
      } catch (e) {
        if (e instanceof QueryTimeoutError || e instanceof QueryCancelledError) throw e;
        const code = (e as { code?: string }).code;
        if (reason === "timeout") throw new QueryTimeoutError(run.timeoutMs!, { cause: e });
        if (reason === "abort") throw new QueryCancelledError({ cause: e });
        if (code === "57014") throw new QueryTimeoutError(options.statementTimeoutMs ?? 0, { cause: e });
        if (isUnavailable(e)) {
          broken = true;
          throw new DatasourceUnavailableError(`Postgres is unavailable: ${(e as Error).message}`, { cause: e });
        }
        if (typeof code === "string" && code.startsWith("22")) throw new QueryValueError((e as Error).message, { cause: e });
        throw new QueryExecutionError((e as Error).message, { cause: e });
      } finally {
        if (timer) clearTimeout(timer);
        run.signal?.removeEventListener("abort", onAbort);
        // A cancel that lands after the query finished could hit the next statement on
        // this connection; wait for it, and drop the connection to be sure.
        if (cancelling) {
          await cancelling;
          broken = true;
        }
        client.release(broken);
      }
    },
    async transaction(statements: readonly string[], run: Pick<QueryRunOptions, "signal"> = {}): Promise<void> {
      if (run.signal?.aborted) throw new QueryCancelledError();
      const client = await connect();
      let broken = false;
      try {
        await runInTransaction((sql) => client.query(sql), statements, { signal: run.signal, onRollbackFailed: () => (broken = true) });
      } catch (e) {
        if (e instanceof QueryCancelledError) throw e;
        if (isUnavailable(e)) {
          broken = true;
          throw new DatasourceUnavailableError(`Postgres is unavailable: ${(e as Error).message}`, { cause: e });
        }
        throw new QueryExecutionError((e as Error).message, { cause: e });
      } finally {
        client.release(broken);
      }
    },
    async close() {
      await pool.end();
    },
  };
}
