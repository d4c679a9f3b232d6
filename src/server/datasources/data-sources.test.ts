import mysql from "mysql2/promise";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { mysqlOptions, mysqlReachable, mysqlUrl, postgresOptions, postgresReachable, postgresUrl } from "../semantic/test-support/shop-fixture";
import { DatasourceUnavailableError, QueryCancelledError, QueryExecutionError, QueryTimeoutError, QueryValueError } from "./data-source";
import { createDuckDbDataSource } from "./duckdb-data-source";
import { createMySqlDataSource } from "./mysql-data-source";
import { createPostgresDataSource } from "./postgres-data-source";

const pgUp = await postgresReachable();
const mysqlUp = await mysqlReachable();
const SLOW_DUCKDB = "SELECT count(*) AS n FROM range(5000000000) a(x) WHERE hash(x) % 7 = 3";

describe("createDuckDbDataSource", () => {
  it("returns JSON-safe values", async () => {
    const ds = createDuckDbDataSource({ path: ":memory:" });
    const [row] = await ds.query(
      "SELECT 42::BIGINT AS big, 12345678901234567890::HUGEINT AS huge, 2.50::DECIMAL(10,2) AS dec, DATE '2024-03-31' AS d, TIMESTAMP '2024-03-31 01:30:00.250' AS ts, TIMESTAMPTZ '2024-03-31 01:30:00+02' AS tz, $1 AS p",
      ["x"],
    );
    expect(row).toEqual({
      big: 42,
      huge: "12345678901234567890",
      dec: 2.5,
      d: "2024-03-31",
      ts: "2024-03-31T01:30:00.250",
      tz: "2024-03-30T23:30:00.000Z",
      p: "x",
    });
    expect(JSON.parse(JSON.stringify(row))).toEqual(row);
    await ds.close();
  });

  it("interrupts a query past its timeout and stays usable", async () => {
    const ds = createDuckDbDataSource({ path: ":memory:", poolSize: 1 });
    const started = Date.now();
    await expect(ds.query(SLOW_DUCKDB, [], { timeoutMs: 200 })).rejects.toBeInstanceOf(QueryTimeoutError);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await ds.query("SELECT 1 AS one", [])).toEqual([{ one: 1 }]);
    await ds.close();
  });

  it("interrupts a query when the caller aborts", async () => {
    const ds = createDuckDbDataSource({ path: ":memory:" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(ds.query(SLOW_DUCKDB, [], { signal: controller.signal })).rejects.toBeInstanceOf(QueryCancelledError);
    await ds.close();
  });

  it("reports a missing read-only file as unavailable and bad SQL as an execution error", async () => {
    const missing = createDuckDbDataSource({ path: "/nonexistent/dir/x.duckdb", readOnly: true });
    await expect(missing.query("SELECT 1", [])).rejects.toMatchObject({ code: "datasource_unavailable" });
    const ds = createDuckDbDataSource({ path: ":memory:" });
    await expect(ds.query("SELEC 1", [])).rejects.toBeInstanceOf(QueryExecutionError);
    await ds.close();
  });

  it("reports a value the data cannot give (an overflow, a text that is no number) as a value error, not a failure", async () => {
    const ds = createDuckDbDataSource({ path: ":memory:" });
    const overflow = await ds.query("SELECT 99999999999::DECIMAL(12,2) * $1", [99999999999]).catch((e) => e);
    expect(overflow).toBeInstanceOf(QueryValueError);
    expect(overflow).toMatchObject({ code: "query_value_error" });
    await expect(ds.query("SELECT CAST($1 AS INTEGER)", ["x"])).rejects.toBeInstanceOf(QueryValueError);
    await expect(ds.query("SELECT nope()", [])).rejects.not.toBeInstanceOf(QueryValueError);
    await ds.close();
  });
});

describe.runIf(pgUp)("createPostgresDataSource (value errors)", () => {
  it("reports Postgres's data exceptions as value errors, other failures as execution errors", async () => {
    const ds = createPostgresDataSource(postgresOptions());
    try {
      const overflow = await ds.query("SELECT 1e300::float8 * $1::float8 AS x", [1e300]).catch((e) => e);
      expect(overflow).toBeInstanceOf(QueryValueError);
      await expect(ds.query("SELECT $1::int AS x", ["x"])).rejects.toBeInstanceOf(QueryValueError);
      const syntax = await ds.query("SELEC 1", []).catch((e) => e);
      expect(syntax).toBeInstanceOf(QueryExecutionError);
      expect(syntax).not.toBeInstanceOf(QueryValueError);
    } finally {
      await ds.close();
    }
  });
});

describe("createDuckDbDataSource (file access)", () => {
  it("refuses model SQL that reads server files, and cannot be switched back", async () => {
    const ds = createDuckDbDataSource({ path: ":memory:" });
    const read = await ds.query("SELECT * FROM read_csv('/etc/passwd')", []).catch((e) => e);
    expect(read).toBeInstanceOf(QueryExecutionError);
    expect(read.message).toMatch(/disabled|external access/i);
    const unlock = await ds.query("SET enable_external_access = true", []).catch((e) => e);
    expect(unlock).toBeInstanceOf(QueryExecutionError);
    await expect(ds.query("SELECT * FROM read_text('/etc/hostname')", [])).rejects.toBeInstanceOf(QueryExecutionError);
    // Naive timestamps are still read as UTC on every connection.
    expect(await ds.query("SELECT current_setting('TimeZone') AS tz", [])).toEqual([{ tz: "UTC" }]);
    await ds.close();
  });
});

describe("createPostgresDataSource (unreachable)", () => {
  it("reports a server that is down as DatasourceUnavailableError", async () => {
    const ds = createPostgresDataSource({ host: "127.0.0.1", port: 1, database: "x", user: "x", connectionTimeoutMs: 1000 });
    const err = await ds.query("SELECT 1", []).catch((e) => e);
    expect(err).toBeInstanceOf(DatasourceUnavailableError);
    expect(err).toMatchObject({ code: "datasource_unavailable" });
    await ds.close();
  });
});

describe.skipIf(!pgUp)(
  pgUp ? `createPostgresDataSource on ${postgresUrl}` : `createPostgresDataSource (skipped: ${postgresUrl} unreachable and DATABASE_URL not set)`,
  () => {
    const activeWithMarker = async (marker: string) => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE $1 AND pid <> pg_backend_pid()", [
        `%${marker}%`,
      ]);
      await c.end();
      return r.rows[0].n as number;
    };

    it("returns JSON-safe values", async () => {
      const ds = createPostgresDataSource(postgresOptions());
      const [row] = await ds.query(
        "SELECT 42::bigint AS big, 2.50::numeric AS dec, DATE '2024-03-31' AS d, TIMESTAMP '2024-03-31 01:30:00.25' AS ts, TIMESTAMPTZ '2024-03-31 01:30:00+02' AS tz, $1::text AS p",
        ["x"],
      );
      expect(row).toEqual({ big: 42, dec: 2.5, d: "2024-03-31", ts: "2024-03-31T01:30:00.250", tz: "2024-03-30T23:30:00.000Z", p: "x" });
      await ds.close();
    });

    it("cancels the statement in the database past its timeout", async () => {
      const ds = createPostgresDataSource(postgresOptions());
      const marker = `svc_timeout_${Date.now()}`;
      await expect(ds.query(`SELECT pg_sleep(30), '${marker}'`, [], { timeoutMs: 300 })).rejects.toMatchObject({ code: "query_timeout" });
      expect(await activeWithMarker(marker)).toBe(0);
      expect(await ds.query("SELECT 1 AS one", [])).toEqual([{ one: 1 }]);
      await ds.close();
    });

    it("cancels the statement when the caller aborts", async () => {
      const ds = createPostgresDataSource(postgresOptions());
      const marker = `svc_abort_${Date.now()}`;
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      await expect(ds.query(`SELECT pg_sleep(30), '${marker}'`, [], { signal: controller.signal })).rejects.toBeInstanceOf(QueryCancelledError);
      expect(await activeWithMarker(marker)).toBe(0);
      await ds.close();
    });

    it("maps statement_timeout to QueryTimeoutError", async () => {
      const ds = createPostgresDataSource({ ...postgresOptions(), statementTimeoutMs: 200 });
      await expect(ds.query("SELECT pg_sleep(5)", [])).rejects.toBeInstanceOf(QueryTimeoutError);
      await ds.close();
    });

    it("reports SQL errors as QueryExecutionError", async () => {
      const ds = createPostgresDataSource(postgresOptions());
      await expect(ds.query("SELECT * FROM no_such_table_here", [])).rejects.toBeInstanceOf(QueryExecutionError);
      await ds.close();
    });
  },
);

describe("createMySqlDataSource (unreachable)", () => {
  it("reports a server that is down as DatasourceUnavailableError", async () => {
    const ds = createMySqlDataSource({ host: "127.0.0.1", port: 1, database: "x", user: "x", connectionTimeoutMs: 1000 });
    const err = await ds.query("SELECT 1", []).catch((e) => e);
    expect(err).toBeInstanceOf(DatasourceUnavailableError);
    expect(err).toMatchObject({ code: "datasource_unavailable" });
    await ds.close();
  });
});

describe.skipIf(!mysqlUp)(
  mysqlUp ? `createMySqlDataSource on ${mysqlUrl}` : `createMySqlDataSource (skipped: ${mysqlUrl} unreachable and MYSQL_URL not set)`,
  () => {
    /** Statements running on the server whose text holds `marker`, other than this look-up. */
    const runningWithMarker = async (marker: string) => {
      const c = await mysql.createConnection(mysqlOptions());
      const [rows] = await c.query<mysql.RowDataPacket[]>(
        "SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE COMMAND = 'Execute' AND INFO LIKE ? AND ID <> CONNECTION_ID()",
        [`%${marker}%`],
      );
      await c.end();
      return Number(rows[0]!.n);
    };

    it("returns JSON-safe values, and binds each ? in order", async () => {
      const ds = createMySqlDataSource(mysqlOptions());
      const [row] = await ds.query(
        "SELECT CAST(42 AS SIGNED) AS big, 12345678901234567890 AS huge, CAST(2.50 AS DECIMAL(10,2)) AS `dec`, sum(3) AS s, DATE '2024-03-31' AS d, CAST('2024-03-31 01:30:00.25' AS DATETIME(6)) AS ts, CAST(? AS CHAR) AS p, CAST(? AS DOUBLE) AS n",
        ["x", 2.5],
      );
      expect(row).toEqual({ big: 42, huge: "12345678901234567890", dec: 2.5, s: 3, d: "2024-03-31", ts: "2024-03-31T01:30:00.250", p: "x", n: 2.5 });
      expect(JSON.parse(JSON.stringify(row))).toEqual(row);
      // The session zone is UTC: a TIMESTAMP value (an instant) reads as the same instant in UTC.
      expect(await ds.query("SELECT @@session.time_zone AS tz, FROM_UNIXTIME(0) AS epoch", [])).toEqual([{ tz: "+00:00", epoch: "1970-01-01T00:00:00.000" }]);
      await ds.close();
    });

    it("kills the statement in the server past its timeout and stays usable", async () => {
      const ds = createMySqlDataSource({ ...mysqlOptions(), poolSize: 1 });
      const marker = `svc_timeout_${Date.now()}`;
      const started = Date.now();
      await expect(ds.query(`SELECT SLEEP(30), '${marker}' AS m`, [], { timeoutMs: 300 })).rejects.toMatchObject({ code: "query_timeout" });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await runningWithMarker(marker)).toBe(0);
      expect(await ds.query("SELECT 1 AS one", [])).toEqual([{ one: 1 }]);
      await ds.close();
    });

    it("kills the statement when the caller aborts", async () => {
      const ds = createMySqlDataSource(mysqlOptions());
      const marker = `svc_abort_${Date.now()}`;
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      await expect(ds.query(`SELECT SLEEP(30), '${marker}' AS m`, [], { signal: controller.signal })).rejects.toBeInstanceOf(QueryCancelledError);
      expect(await runningWithMarker(marker)).toBe(0);
      await ds.close();
    });

    it("maps the server's statement time limit to QueryTimeoutError", async () => {
      const ds = createMySqlDataSource({ ...mysqlOptions(), statementTimeoutMs: 200 });
      // MariaDB's max_statement_time stops a running SLEEP() early (it returns 1) rather than failing it; a long scan fails.
      const err = await ds
        .query("SELECT count(*) AS n FROM information_schema.COLUMNS a, information_schema.COLUMNS b, information_schema.COLUMNS c", [])
        .catch((e) => e);
      expect(err).toBeInstanceOf(QueryTimeoutError);
      await ds.close();
    });

    it("reports a value the data cannot give as a value error, other failures as execution errors", async () => {
      const ds = createMySqlDataSource(mysqlOptions());
      await expect(ds.query("SELECT 1e300 * ? AS x", [1e300])).rejects.toBeInstanceOf(QueryValueError);
      const missing = await ds.query("SELECT * FROM no_such_table_here", []).catch((e) => e);
      expect(missing).toBeInstanceOf(QueryExecutionError);
      expect(missing).not.toBeInstanceOf(QueryValueError);
      await expect(ds.query("SELEC 1", [])).rejects.toBeInstanceOf(QueryExecutionError);
      await ds.close();
    });

    it("lifts the recursion limit, so a long fill series is not cut at 1000 rows", async () => {
      const ds = createMySqlDataSource(mysqlOptions());
      const [row] = await ds.query("WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ?) SELECT count(*) AS n FROM s", [5000]);
      expect(row).toEqual({ n: 5000 });
      await ds.close();
    });

    it("sets up each connection's session once, not on every query", async () => {
      const ds = createMySqlDataSource({ ...mysqlOptions(), poolSize: 1 });
      for (let i = 0; i < 5; i++) await ds.query("SELECT ? AS i", [i]);
      // Com_set_option counts this session's SET statements: the one of the set-up.
      expect(await ds.query("SHOW SESSION STATUS LIKE 'Com_set_option'", [])).toEqual([{ Variable_name: "Com_set_option", Value: "1" }]);
      await ds.close();
    });

    it("runs one statement per call (no stacked statements)", async () => {
      const ds = createMySqlDataSource(mysqlOptions());
      await expect(ds.query("SELECT 1; SELECT 2", [])).rejects.toBeInstanceOf(QueryExecutionError);
      await ds.close();
    });
  },
);

describe("DataSource.transaction: all of its statements or none", () => {
  const engines = [
    { name: "DuckDB", up: true, open: () => createDuckDbDataSource({ path: ":memory:", poolSize: 2 }) },
    { name: "Postgres", up: pgUp, open: () => createPostgresDataSource(postgresOptions()) },
    { name: "MySQL", up: mysqlUp, open: () => createMySqlDataSource(mysqlOptions()) },
  ];
  for (const engine of engines) {
    it.runIf(engine.up)(`${engine.name}: commits every statement, or on a failure or an abort keeps the rows as they were`, async () => {
      const ds = engine.open();
      const table = `svc_tx_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
      try {
        await ds.query(`CREATE TABLE ${table} (bucket INTEGER, n INTEGER)`, []);
        await ds.query(`INSERT INTO ${table} VALUES (1, 10), (2, 20), (3, 30)`, []);
        const rows = async () => (await ds.query(`SELECT bucket, n FROM ${table} ORDER BY bucket`, [])).map((r) => [Number(r.bucket), Number(r.n)]);

        await ds.transaction([`DELETE FROM ${table} WHERE bucket >= 2`, `INSERT INTO ${table} VALUES (2, 21), (3, 31), (4, 41)`]);
        expect(await rows()).toEqual([
          [1, 10],
          [2, 21],
          [3, 31],
          [4, 41],
        ]);

        // The delete ran, the insert failed: neither holds.
        await expect(ds.transaction([`DELETE FROM ${table} WHERE bucket >= 2`, `INSERT INTO ${table}_missing VALUES (2, 22)`])).rejects.toBeInstanceOf(
          QueryExecutionError,
        );
        expect(await rows()).toEqual([
          [1, 10],
          [2, 21],
          [3, 31],
          [4, 41],
        ]);

        const aborted = new AbortController();
        aborted.abort();
        await expect(ds.transaction([`DELETE FROM ${table}`], { signal: aborted.signal })).rejects.toBeInstanceOf(QueryCancelledError);
        expect(await rows()).toHaveLength(4);
      } finally {
        await ds.query(`DROP TABLE IF EXISTS ${table}`, []).catch(() => undefined);
        await ds.close();
      }
    });
  }
});
