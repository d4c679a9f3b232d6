import { describe, expect, it } from "vitest";
import { compileQuery, type SqlDialect } from "../compile-query";
import { loadDataModel } from "../data-model";
import type { SemanticQuery } from "../../../schema/semantic-query";
import type { SecurityContext } from "../security-context";
import { demoModelFiles } from "../../demo/seed";
import { dialectFor } from "./dialects";

// The demo's completion rate is `CAST({completed_count} AS DOUBLE PRECISION) / NULLIF({count}, 0)`:
// Postgres and DuckDB take that CAST, MySQL and MariaDB only `CAST(… AS DOUBLE)`.
const model = loadDataModel(demoModelFiles());
const NOW = new Date("2025-07-01T12:00:00Z");
const acme: SecurityContext = { embedTenant: "acme-corp", groups: [], userAttributes: {}, role: "viewer" };

const query: SemanticQuery = {
  measures: ["sales.completion_rate", "sales.average_order_value", "sales.books_completion"],
  dimensions: ["sales.customers_country"],
  calculatedFields: [{ name: "books_completion", formula: "completion_rate(where products_category = 'Books')" }],
  order: { "sales.completion_rate": "desc" },
};

describe("model SQL on MySQL / MariaDB", () => {
  for (const dialect of ["duckdb", "postgres", "mysql"] as SqlDialect[]) {
    it(`demo-completion-rate (${dialect})`, async () => {
      const compiled = compileQuery(model, query, { dialect, securityContext: acme, now: NOW });
      if (dialect === "mysql") expect(compiled.sql).not.toMatch(/DOUBLE PRECISION/i);
      else expect(compiled.sql).toMatch(/AS DOUBLE PRECISION\)/);
      await expect(`${compiled.sql}\n\n-- params: ${JSON.stringify(compiled.params)}\n`).toMatchFileSnapshot(`./golden/demo-completion-rate.${dialect}.sql`);
    });
  }

  it("respells the cast outside quoted strings and identifiers only", () => {
    const mysql = dialectFor("mysql");
    expect(mysql.modelSql("CAST({a} as  double\nprecision) / 2")).toBe("CAST({a} AS DOUBLE) / 2");
    expect(mysql.modelSql("CONCAT('AS DOUBLE PRECISION', `as double precision`, \"it''s AS DOUBLE PRECISION\")")).toBe(
      "CONCAT('AS DOUBLE PRECISION', `as double precision`, \"it''s AS DOUBLE PRECISION\")",
    );
    expect(mysql.modelSql("CAST(x AS DOUBLE PRECISIONS)")).toBe("CAST(x AS DOUBLE PRECISIONS)");
    expect(dialectFor("postgres").modelSql("CAST(x AS DOUBLE PRECISION)")).toBe("CAST(x AS DOUBLE PRECISION)");
  });
});
