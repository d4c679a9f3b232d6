import { describe, expect, it } from "vitest";
import { loadDataModel } from "./data-model";
import { DataModelError } from "./errors";
import { grainCovers } from "./rollup-definition";

const cubes = `cubes:
  - name: orders
    sql_table: orders
    joins:
      - { name: customers, relationship: many_to_one, sql: "{CUBE}.customer_id = {customers}.id" }
      - { name: items, relationship: one_to_many, sql: "{CUBE}.id = {items}.order_id" }
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
      - { name: revenue, sql: amount, type: sum }
      - { name: aov, type: number, sql: "{revenue} / NULLIF({count}, 0)" }
      - { name: odd, type: number, sql: "max({CUBE}.amount)" }
  - name: customers
    sql_table: customers
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: country, sql: country, type: string }
      - { name: signed_up_at, sql: signed_up_at, type: time }
  - name: items
    sql_table: items
    dimensions: [{ name: sku, sql: sku, type: string }]
`;

const load = (rollups: string) =>
  loadDataModel([
    { path: "model.yml", content: cubes },
    { path: "rollups.yml", content: rollups },
  ]);
const problemsOf = (rollups: string) => {
  try {
    load(rollups);
  } catch (e) {
    if (e instanceof DataModelError) return e.problems.map((p) => `${p.file}:${p.line} ${p.path.join(".")}: ${p.message}`);
    throw e;
  }
  return [];
};

describe("rollups in the data model", () => {
  it("loads a rollup with joined dimensions, a schedule and a refresh key", () => {
    const model = load(`rollups:
  - name: orders_daily
    cube: orders
    measures: [count, revenue, aov]
    dimensions: [status, customers.country]
    time_dimension: created_at
    granularity: day
    partition_granularity: month
    update_window: 2
    refresh: { every: "*/15 * * * *", sql: "SELECT max(created_at) FROM orders" }
`);
    expect(model.rollups.get("orders_daily")).toEqual({
      name: "orders_daily",
      cube: "orders",
      measures: ["count", "revenue", "aov"],
      dimensions: [
        { cube: "orders", dimension: "status" },
        { cube: "customers", dimension: "country" },
      ],
      timeDimension: { dimension: "created_at", granularity: "day" },
      partitionGranularity: "month",
      updateWindow: 2,
      refreshEvery: "*/15 * * * *",
      refreshKeySql: "SELECT max(created_at) FROM orders",
      file: "rollups.yml",
    });
  });

  it("reports each problem with its file, line and path", () => {
    expect(
      problemsOf(`rollups:
  - name: bad
    cube: orders
    measures: [count, nope, aov, odd]
    dimensions: [items.sku, customers.signed_up_at, customers.zip]
    time_dimension: status
    granularity: month
    partition_granularity: week
    refresh: { every: "every hour" }
`),
    ).toEqual([
      expect.stringMatching(/^rollups\.yml:9 rollups\.0\.refresh\.every: refresh\.every is not a cron expression/),
      'rollups.yml:6 rollups.0.time_dimension: "status" is not a time dimension of cube "orders"',
      "rollups.yml:8 rollups.0.partition_granularity: partitions by week cannot hold whole month buckets",
      'rollups.yml:5 rollups.0.dimensions.0: cube "items" is not reached from "orders" by many-to-one joins (a rollup must not multiply rows)',
      'rollups.yml:5 rollups.0.dimensions.1: time dimension "customers.signed_up_at" belongs in time_dimension, with a granularity',
      'rollups.yml:5 rollups.0.dimensions.2: unknown dimension "zip" of cube "customers"',
      'rollups.yml:4 rollups.0.measures.1: unknown measure "nope" of cube "orders"',
      'rollups.yml:4 rollups.0.measures.2: number measure "aov" needs measure "revenue" in the rollup too',
      'rollups.yml:4 rollups.0.measures.3: number measure "odd" reads {CUBE}, not a measure: only number measures built from measures can be rolled up',
    ]);
  });

  it("takes an update window only with partitions, one partition when none is given", () => {
    const rollup = (extra: string) => `rollups:
  - name: daily
    cube: orders
    measures: [count]
    time_dimension: created_at
    granularity: day
${extra}`;
    expect(problemsOf(rollup("    update_window: 3\n"))).toEqual(["rollups.yml:7 rollups.0.update_window: update_window needs partition_granularity"]);
    expect(problemsOf(rollup("    partition_granularity: month\n    update_window: 0\n"))).toEqual([expect.stringContaining("rollups.0.update_window")]);
    expect(problemsOf(rollup("    partition_granularity: month\n"))).toEqual([]);
  });

  it("refuses unknown keys, unknown cubes and duplicate names", () => {
    expect(
      problemsOf(`rollups:
  - { name: a, cube: nope, measures: [count], time_dimension: created_at, granularity: day }
  - { name: b, cube: orders, measures: [count], time_dimension: created_at, granularity: day, extra: 1 }
  - { name: c, cube: orders, measures: [count], time_dimension: created_at, granularity: day }
  - { name: c, cube: orders, measures: [count], time_dimension: created_at, granularity: day }
`),
    ).toEqual([expect.stringMatching(/^rollups\.yml:3 rollups\.1: Unrecognized key: "extra"/)]);
    expect(
      problemsOf(`rollups:
  - { name: a, cube: nope, measures: [count], time_dimension: created_at, granularity: day }
  - { name: c, cube: orders, measures: [count], time_dimension: created_at, granularity: day }
  - { name: c, cube: orders, measures: [count], time_dimension: created_at, granularity: day }
`),
    ).toEqual(['rollups.yml:2 rollups.0.cube: unknown cube "nope"', 'rollups.yml:4 rollups.2.name: duplicate rollup name "c"']);
  });

  it("knows which grains are unions of which", () => {
    expect(grainCovers("day", "month")).toBe(true);
    expect(grainCovers("day", "week")).toBe(true);
    expect(grainCovers("week", "month")).toBe(false);
    expect(grainCovers("month", "week")).toBe(false);
    expect(grainCovers("month", "day")).toBe(false);
    expect(grainCovers("hour", "hour")).toBe(true);
  });
});
