import { describe, expect, it } from "vitest";
import { DuckDbDialect } from "../compiler/duckdb-dialect";
import { PostgresDialect } from "../compiler/postgres-dialect";
import { emitForTest } from "./test-scope";

describe("emitFormula", () => {
  const duckdb = new DuckDbDialect();
  const postgres = new PostgresDialect();

  it.each([
    ["revenue / customers_count", 'CAST(M("sales"."revenue") AS DOUBLE PRECISION) / NULLIF(M("sales"."customers_count"), 0)', []],
    ["revenue - cost", '(M("sales"."revenue") - M("sales"."cost"))', []],
    ["amount * 1.2", '("sales"."amount" * CAST($1 AS DOUBLE))', [1.2]],
    ["-(amount + 2)", '(- ("sales"."amount" + CAST($1 AS DOUBLE)))', [2]],
    [
      "count(where status = 'returned') / count",
      'CAST(F("sales"."count" | ("sales"."status" = CAST($1 AS VARCHAR))) AS DOUBLE PRECISION) / NULLIF(M("sales"."count"), 0)',
      ["returned"],
    ],
    [
      "sum(amount where is_big and status not in ('a', 'it''s'))",
      'sum(CASE WHEN ("sales"."is_big" AND ("sales"."status" NOT IN (CAST($1 AS VARCHAR), CAST($2 AS VARCHAR)))) THEN "sales"."amount" END)',
      ["a", "it's"],
    ],
    ["count_distinct(country)", 'count(DISTINCT "sales"."country")', []],
    ["round(amount, 2)", 'round(CAST("sales"."amount" AS DOUBLE), CAST($1 AS INTEGER))', [2]],
    ["coalesce(status, 'none')", 'coalesce("sales"."status", CAST($1 AS VARCHAR))', ["none"]],
    ["NOT is_big OR status IS NULL", '((NOT "sales"."is_big") OR ("sales"."status" IS NULL))', []],
    ["is_big != true", '("sales"."is_big" <> CAST($1 AS BOOLEAN))', [true]],
    ["UPPER(country) >= 'DE'", '(upper("sales"."country") >= CAST($1 AS VARCHAR))', ["DE"]],
  ])("writes %j (duckdb)", (text, sql, params) => {
    const out = emitForTest(text, duckdb);
    expect(out.sql).toBe(sql.startsWith("CAST(M") || sql.startsWith("CAST(F") ? `(${sql})` : sql);
    expect(out.params).toEqual(params);
  });

  it("spells numbers as NUMERIC on Postgres and binds every literal", () => {
    expect(emitForTest("round(revenue * 1.5, 0)", postgres)).toEqual({
      sql: 'round(CAST((M("sales"."revenue") * CAST($1 AS NUMERIC)) AS NUMERIC), CAST($2 AS INTEGER))',
      params: [1.5, 0],
    });
  });
});
