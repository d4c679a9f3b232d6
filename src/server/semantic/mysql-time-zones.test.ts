import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDuckDbDataSource } from "../datasources/duckdb-data-source";
import type { DataSource } from "../datasources/data-source";
import { createMySqlDataSource } from "../datasources/mysql-data-source";
import { compileQuery, type SqlDialect } from "./compile-query";
import { loadDataModel } from "./data-model";
import type { Granularity, SemanticQuery, TimePart } from "../../schema/semantic-query";
import { adminViewer, mysqlOptions, mysqlReachable, mysqlUrl } from "./test-support/shop-fixture";

/**
 * The same events in DuckDB and in MySQL / MariaDB: every 1201 s through 2024, a second before
 * and at DST changes of the zones below, and one without a time. DuckDB's buckets are checked
 * against a per-row conversion (time-zone-buckets.test.ts); MySQL's must be the same rows.
 */
const mysqlUp = await mysqlReachable();
const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "UTC"];
const GRANULARITIES: Granularity[] = ["hour", "day", "week", "month", "quarter", "year"];
const PARTS: TimePart[] = ["dayOfWeek", "hourOfDay", "dayOfMonth", "weekOfYear", "monthOfYear", "quarterOfYear"];
const EDGES = ["2024-03-31 01:00:00", "2024-10-27 01:00:00", "2024-03-10 07:00:00", "2024-11-03 06:00:00", "2024-04-06 15:00:00", "2024-10-05 15:30:00"];

function eventRows(): [number, string | null][] {
  const rows: [number, string | null][] = [];
  const start = Date.UTC(2024, 0, 1);
  const naive = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
  for (let i = 0; i < 26300; i++) rows.push([i, naive(start + i * 1201_000)]);
  EDGES.forEach((t, i) => {
    const at = Date.parse(`${t.replace(" ", "T")}Z`);
    rows.push([100000 + 2 * i, naive(at - 1000)], [100001 + 2 * i, naive(at)]);
  });
  rows.push([200001, null]);
  return rows;
}

describe.skipIf(!mysqlUp)(
  mysqlUp ? `time zones on MySQL at ${mysqlUrl}` : `time zones on MySQL (skipped: ${mysqlUrl} unreachable and MYSQL_URL not set)`,
  () => {
    const database = `svc_test_mysql_${process.pid}_tz`;
    let admin: mysql.Connection;
    let duck: DataSource;
    let my: DataSource;
    const models = {
      duckdb: modelFor("events"),
      mysql: modelFor(`${database}.events`),
    } as const;

    beforeAll(async () => {
      const rows = eventRows();
      admin = await mysql.createConnection({ ...mysqlOptions(), database: undefined });
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.query(`CREATE TABLE ${database}.events (id INTEGER, happened DATETIME(6))`);
      for (let i = 0; i < rows.length; i += 5000) await admin.query(`INSERT INTO ${database}.events VALUES ?`, [rows.slice(i, i + 5000)]);
      my = createMySqlDataSource({ ...mysqlOptions(), poolSize: 2 });
      duck = createDuckDbDataSource({ path: ":memory:" });
      await duck.query("CREATE TABLE events (id INTEGER, happened TIMESTAMP)", []);
      const values = rows.map(([id, at]) => `(${id}, ${at === null ? "NULL" : `TIMESTAMP '${at}'`})`);
      for (let i = 0; i < values.length; i += 5000) await duck.query(`INSERT INTO events VALUES ${values.slice(i, i + 5000).join(", ")}`, []);
    }, 60_000);
    afterAll(async () => {
      await my?.close();
      await duck?.close();
      await admin?.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin?.end();
    });

    const run = async (dialect: SqlDialect, query: SemanticQuery) => {
      const c = compileQuery(
        dialect === "mysql" ? models.mysql : models.duckdb,
        { measures: ["events.count"], limit: 50000, ...query },
        { dialect, securityContext: adminViewer },
      );
      return (dialect === "mysql" ? my : duck).query(c.sql, c.params);
    };
    const same = async (query: SemanticQuery) => {
      const expected = await run("duckdb", query);
      expect(expected.length).toBeGreaterThan(0);
      expect(await run("mysql", query)).toEqual(expected);
    };

    for (const tz of ZONES) {
      it(`buckets and parts of time in ${tz} as DuckDB does, for every granularity, with and without a date range`, async () => {
        for (const granularity of GRANULARITIES) {
          await same({ timeDimensions: [{ dimension: "events.at", granularity }], timezone: tz, order: [["events.at", "asc"]] });
        }
        await same({
          timeDimensions: [{ dimension: "events.at", granularity: "minute", dateRange: ["2024-10-26", "2024-10-28"] }],
          timezone: tz,
          order: [["events.at", "asc"]],
        });
        await same({
          timeDimensions: [{ dimension: "events.at", granularity: "second", dateRange: ["2024-03-31T00:00:00", "2024-03-31T04:00:00"] }],
          timezone: tz,
          order: [["events.at", "asc"]],
        });
        for (const part of PARTS) {
          await same({ timeDimensions: [{ dimension: "events.at", part }], timezone: tz, order: [[`events.at.${part}`, "asc"]] });
        }
      });
    }

    it("fills missing buckets and compares periods as DuckDB does", async () => {
      const query: SemanticQuery = {
        measures: ["events.count"],
        timeDimensions: [{ dimension: "events.at", granularity: "day", dateRange: ["2024-12-25", "2025-01-05"] }],
        timezone: "America/New_York",
        order: [["events.at", "asc"]],
      };
      const options = {
        securityContext: adminViewer,
        fillMissingRows: { member: "events.at.day" },
        periodComparisons: [
          { measure: "events.count", timeDimension: "events.at.day", offset: { amount: 1, unit: "week" }, outputs: ["events.prev", "events.change"] },
        ],
      };
      const duckdb = compileQuery(models.duckdb, query, { dialect: "duckdb", ...options });
      const expected = await duck.query(duckdb.sql, duckdb.params);
      // Twelve days, of which the last five have no events (the data ends with 2024) and are filled.
      expect(expected).toHaveLength(12);
      expect(expected.at(-1)).toMatchObject({ "events.at.day": "2025-01-05T00:00:00.000", "events.count": 0 });
      const mysqlCompiled = compileQuery(models.mysql, query, { dialect: "mysql", ...options });
      expect(await my.query(mysqlCompiled.sql, mysqlCompiled.params)).toEqual(expected);
    });
  },
);

function modelFor(table: string) {
  return loadDataModel([
    {
      path: "events.yml",
      content: `
cubes:
  - name: events
    sql_table: ${table}
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: at, sql: happened, type: time }
    measures:
      - { name: count, type: count }
`,
    },
  ]);
}
