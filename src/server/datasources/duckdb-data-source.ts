import type { DuckDBConnection, DuckDBInstance, DuckDBTypeId, DuckDBValue } from "@duckdb/node-api";
import { existsSync } from "node:fs";
import {
  DatasourceUnavailableError,
  QueryCancelledError,
  QueryExecutionError,
  QueryTimeoutError,
  QueryValueError,
  bigintToJson,
  formatNaiveTimestamp,
  type DataSource,
  type QueryRunOptions,
  type ResultRow,
  runInTransaction,
} from "./data-source";

/** Options of `createDuckDbDataSource`. */
export interface DuckDbDataSourceOptions {
  /** Database file, or ":memory:". */
  path: string;
  /** Open read-only (the default for serving); the file must then exist. */
  readOnly?: boolean;
  /** Connections run in parallel; queries beyond that wait in line. Default 4. */
  poolSize?: number;
}

interface Waiter {
  resolve: (c: DuckDBConnection) => void;
  reject: (e: unknown) => void;
}

/**
 * The DuckDB package, loaded on first use: its native addon takes ~0.3 s to load, which a start
 * that serves no DuckDB query yet need not wait for.
 */
let duckdbPackage: Promise<typeof import("@duckdb/node-api")> | undefined;
export const loadDuckDb = () => (duckdbPackage ??= import("@duckdb/node-api"));

/**
 * DuckDB in-process. One instance, a small pool of connections; a cancelled or timed-out
 * query is stopped with `connection.interrupt()` so it does not keep burning CPU.
 */
export function createDuckDbDataSource(options: DuckDbDataSourceOptions): DataSource & { instance(): Promise<DuckDBInstance> } {
  const poolSize = Math.max(1, options.poolSize ?? 4);
  let instancePromise: Promise<DuckDBInstance> | undefined;
  const idle: DuckDBConnection[] = [];
  const waiters: Waiter[] = [];
  let created = 0;
  let closed = false;

  const instance = () => {
    instancePromise ??= (async () => {
      if (options.readOnly && options.path !== ":memory:" && !existsSync(options.path)) {
        throw new DatasourceUnavailableError(`DuckDB file not found: ${options.path}`);
      }
      try {
        const { DuckDBInstance } = await loadDuckDb();
        const created = await DuckDBInstance.create(options.path, options.readOnly ? { access_mode: "READ_ONLY" } : {});
        // Model SQL runs here: it must not read other files of the server (read_csv('/etc/passwd'))
        // nor switch that back on, so external access is off and the configuration locked.
        const setup = await created.connect();
        try {
          // Naive TIMESTAMP columns are read as UTC, the same on every machine.
          await setup.run("SET GLOBAL TimeZone = 'UTC'");
          await setup.run("SET enable_external_access = false");
          await setup.run("SET lock_configuration = true");
        } finally {
          setup.closeSync();
        }
        return created;
      } catch (cause) {
        throw new DatasourceUnavailableError(`Cannot open DuckDB database: ${(cause as Error).message}`, { cause });
      }
    })();
    instancePromise.catch(() => (instancePromise = undefined));
    return instancePromise;
  };

  async function acquire(): Promise<DuckDBConnection> {
    if (closed) throw new DatasourceUnavailableError("Data source is closed");
    const free = idle.pop();
    if (free) return free;
    if (created < poolSize) {
      created++;
      try {
        return await (await instance()).connect();
      } catch (e) {
        created--;
        throw e instanceof DatasourceUnavailableError ? e : new DatasourceUnavailableError(`Cannot connect to DuckDB: ${(e as Error).message}`, { cause: e });
      }
    }
    return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
  }

  function release(conn: DuckDBConnection) {
    const next = waiters.shift();
    if (next) next.resolve(conn);
    else idle.push(conn);
  }

  return {
    dialect: "duckdb",
    instance,
    /**
     * Runs a statement within the caller's time limit, counted from the call (waiting for a
     * connection included). On time-out or abort the caller is answered at once and the
     * statement interrupted; its connection goes back to the pool only once DuckDB has stopped.
     */
    query(sql: string, params: readonly unknown[], run: QueryRunOptions = {}): Promise<ResultRow[]> {
      if (run.signal?.aborted) return Promise.reject(new QueryCancelledError());
      return new Promise<ResultRow[]>((resolve, reject) => {
        let conn: DuckDBConnection | undefined;
        let reason: "timeout" | "abort" | undefined;
        let settled = false;
        const settle = (answer: () => void) => {
          if (settled) return;
          settled = true;
          if (timer) clearTimeout(timer);
          run.signal?.removeEventListener("abort", onAbort);
          answer();
        };
        const stop = (why: "timeout" | "abort") => {
          if (reason) return;
          reason = why;
          conn?.interrupt();
          settle(() => reject(why === "timeout" ? new QueryTimeoutError(run.timeoutMs!) : new QueryCancelledError()));
        };
        const timer = run.timeoutMs !== undefined ? setTimeout(() => stop("timeout"), run.timeoutMs) : undefined;
        const onAbort = () => stop("abort");
        run.signal?.addEventListener("abort", onAbort, { once: true });
        void (async () => {
          let acquired: DuckDBConnection;
          try {
            acquired = await acquire();
          } catch (e) {
            settle(() => reject(e));
            return;
          }
          // Stopped while this waited for a connection (or the instance opened).
          if (reason) return release(acquired);
          conn = acquired;
          try {
            const reader = await acquired.runAndReadAll(sql, params as DuckDBValue[]);
            const rows = toJsonRows(
              reader.columnNames(),
              reader.columnTypes().map((t) => t.typeId),
              reader.getRowObjectsJS() as Record<string, unknown>[],
            );
            settle(() => resolve(rows));
          } catch (e) {
            settle(() => reject(executionError(e)));
          } finally {
            release(acquired);
          }
        })();
      });
    },
    async transaction(statements: readonly string[], run: Pick<QueryRunOptions, "signal"> = {}): Promise<void> {
      if (run.signal?.aborted) throw new QueryCancelledError();
      const conn = await acquire();
      try {
        await runInTransaction((sql) => conn.run(sql), statements, { signal: run.signal, begin: "BEGIN TRANSACTION" });
      } catch (e) {
        throw executionError(e);
      } finally {
        release(conn);
      }
    },
    async close() {
      closed = true;
      for (const w of waiters.splice(0)) w.reject(new DatasourceUnavailableError("Data source is closed"));
      for (const c of idle.splice(0)) c.closeSync();
      // A file is closed at once (its lock released for the next opening). An in-memory database
      // holds nothing but memory and is left to the garbage collector: closing its instance while
      // results it produced were still to be finalized crashed the process now and then
      // (`explain-segments.test.ts` run alone: 2 of 6 runs; 0 of 8 without the close).
      if (instancePromise && options.path !== ":memory:") {
        const inst = await instancePromise.catch(() => undefined);
        inst?.closeSync();
      }
    },
  };
}

/** What a failed statement is: a value the data could not give (422), or the query's failure. */
function executionError(e: unknown): Error {
  if (e instanceof QueryTimeoutError || e instanceof QueryCancelledError) return e;
  const message = (e as Error).message;
  if (/^(Out of Range|Conversion) Error\b/.test(message)) return new QueryValueError(message, { cause: e });
  return new QueryExecutionError(message, { cause: e });
}

/** DuckDB's type ids of DATE and TIMESTAMP_TZ (fixed by its C API). */
const DATE_TYPE: DuckDBTypeId = 13;
const TIMESTAMP_TZ_TYPE: DuckDBTypeId = 31;

function toJsonRows(names: string[], types: DuckDBTypeId[], rows: Record<string, unknown>[]): ResultRow[] {
  const convert = (value: unknown, type: DuckDBTypeId | undefined): unknown => {
    if (value === null || value === undefined) return null;
    if (typeof value === "bigint") return bigintToJson(value);
    if (value instanceof Date) {
      if (type === DATE_TYPE) return value.toISOString().slice(0, 10);
      if (type === TIMESTAMP_TZ_TYPE) return value.toISOString();
      return formatNaiveTimestamp(value);
    }
    if (Array.isArray(value)) return value.map((v) => convert(v, undefined));
    if (typeof value === "object") {
      return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? bigintToJson(v) : v)));
    }
    return value;
  };
  return rows.map((row) => {
    const out: ResultRow = {};
    names.forEach((name, i) => (out[name] = convert(row[name], types[i])));
    return out;
  });
}
