import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDuckDbDataSource } from "../datasources/duckdb-data-source";
import type { DataSource } from "../datasources/data-source";
import { compileQuery } from "./compile-query";
import { loadDataModel } from "./data-model";
import { zoneOffsetSegments, zonedWallTimeToInstant } from "./date-range";
import type { Granularity } from "../../schema/semantic-query";
import { adminViewer } from "./test-support/shop-fixture";

// Events every 1201 s through 2024, a second before and at DST changes of the zones below,
// one before the offset window (converted row by row) and one without a time.
const model = loadDataModel([
  {
    path: "events.yml",
    content: `
cubes:
  - name: events
    sql_table: events
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: at, sql: happened, type: time }
      - { name: at_tz, sql: happened_tz, type: time }
    measures:
      - { name: count, type: count }
`,
  },
]);

const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "UTC"];
let ds: DataSource;

beforeAll(async () => {
  ds = createDuckDbDataSource({ path: ":memory:" });
  await ds.query(
    `CREATE TABLE events AS
       SELECT i AS id, TIMESTAMP '2024-01-01' + to_seconds(i * 1201) AS happened FROM range(26300) r(i)
       UNION ALL SELECT 100000 + i, CAST(t AS TIMESTAMP) + to_seconds(d) FROM unnest([
         '2024-03-31 01:00:00', '2024-10-27 01:00:00', '2024-03-10 07:00:00', '2024-11-03 06:00:00',
         '2024-04-06 15:00:00', '2024-10-05 15:30:00']) WITH ORDINALITY AS u(t, i), unnest([-1, 0]) AS v(d)
       UNION ALL SELECT 200000, TIMESTAMP '1995-10-29 00:59:59'
       UNION ALL SELECT 200001, NULL`,
    [],
  );
  await ds.query("ALTER TABLE events ADD COLUMN happened_tz TIMESTAMPTZ", []);
  await ds.query("UPDATE events SET happened_tz = CAST(happened AS TIMESTAMPTZ)", []);
});
afterAll(() => ds.close());

/** The same buckets by converting every row with DuckDB's own zone rules. */
async function reference(column: string, tz: string, granularity: Granularity, range?: [string, string]) {
  const where = range ? `WHERE happened >= CAST($2 AS TIMESTAMP) AND happened < CAST($3 AS TIMESTAMP)` : "";
  return ds.query(
    `SELECT date_trunc('${granularity}', timezone($1, CAST(${column} AS TIMESTAMPTZ))) AS b, count(*) AS n FROM events ${where} GROUP BY 1 ORDER BY 1 NULLS LAST`,
    range ? [tz, ...range] : [tz],
  );
}

async function compiled(member: string, tz: string, granularity: Granularity, dateRange?: [string, string]) {
  const c = compileQuery(
    model,
    { measures: ["events.count"], timeDimensions: [{ dimension: member, granularity, ...(dateRange ? { dateRange } : {}) }], timezone: tz, limit: 50000 },
    { dialect: "duckdb", securityContext: adminViewer },
  );
  const rows = await ds.query(c.sql, c.params);
  return rows.map((r) => ({ b: r[`${member}.${granularity}`], n: r["events.count"] }));
}

describe("time zone buckets on DuckDB", () => {
  for (const tz of ZONES) {
    it(`match a per-row conversion in ${tz} for every granularity, with and without a date range`, async () => {
      for (const granularity of ["hour", "day", "week", "month"] as Granularity[]) {
        expect(await compiled("events.at", tz, granularity)).toEqual(await reference("happened", tz, granularity));
      }
      const autumn: [string, string] = ["2024-10-01T00:00:00.000", "2024-11-10T00:00:00.000"];
      const utcAutumn = autumn.map((w) =>
        zonedWallTimeToInstant(new Date(`${w}Z`), tz)
          .toISOString()
          .slice(0, 23),
      ) as [string, string];
      expect(await compiled("events.at", tz, "minute", autumn)).toEqual(await reference("happened", tz, "minute", utcAutumn));
      const got = await compiled("events.at", tz, "hour", ["2024-03-01", "2024-11-30"]);
      const first = got[0]!.b as string;
      // Whatever the zone, the range starts at local midnight, so the first bucket does too.
      expect(first).toBe("2024-03-01T00:00:00.000");
      expect(got.reduce((a, r) => a + (r.n as number), 0)).toBeGreaterThan(18000);
    });
  }

  it("buckets a TIMESTAMPTZ column like the naive UTC one", async () => {
    for (const tz of ["Australia/Lord_Howe", "UTC"]) {
      expect(await compiled("events.at_tz", tz, "hour")).toEqual(await compiled("events.at", tz, "hour"));
    }
    const june = await compiled("events.at_tz", "Asia/Kathmandu", "day", ["2024-06-01", "2024-06-01"]);
    expect(june).toEqual(await compiled("events.at", "Asia/Kathmandu", "day", ["2024-06-01", "2024-06-01"]));
    expect(june).toEqual([{ b: "2024-06-01T00:00:00.000", n: 72 }]);
  });
});

describe("zoneOffsetSegments", () => {
  it("finds half-hour DST changes and constant 45-minute offsets", () => {
    const minutes = (tz: string) =>
      zoneOffsetSegments(tz, new Date("2024-01-01T00:00:00Z"), new Date("2025-01-01T00:00:00Z")).map((s) => [s.start.toISOString(), s.offsetMs / 60_000]);
    expect(minutes("Australia/Lord_Howe")).toEqual([
      ["2024-01-01T00:00:00.000Z", 660],
      ["2024-04-06T15:00:00.000Z", 630],
      ["2024-10-05T15:30:00.000Z", 660],
    ]);
    expect(minutes("Asia/Kathmandu")).toEqual([["2024-01-01T00:00:00.000Z", 345]]);
    expect(minutes("Europe/Berlin")).toEqual([
      ["2024-01-01T00:00:00.000Z", 60],
      ["2024-03-31T01:00:00.000Z", 120],
      ["2024-10-27T01:00:00.000Z", 60],
    ]);
  });
});
