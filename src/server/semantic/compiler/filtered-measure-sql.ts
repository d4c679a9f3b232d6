import { IDENTIFIER, SQL_REFERENCE, type Cube, type Dimension, type Measure } from "../data-model";
import { QueryValidationError } from "../errors";
import type { Dialect } from "./dialect";
import { primaryKeyOf } from "./join-tree";
import { memberSql } from "./member-sql";

/**
 * SQL of a measure counted over the rows meeting one more condition (a calculated field's
 * `revenue(where status = 'returned')`): the condition joins the measure's own filters inside
 * its aggregate, as `memberSql` writes them. A `number` measure passes the condition on to the
 * measures it is built from.
 */
export function filteredMeasureSql(dialect: Dialect, cube: Cube, def: Measure, multiplied: boolean, condition: string, depth = 0): string {
  if (depth > 16) {
    throw new QueryValidationError([{ path: [], code: "unknown_member", message: `member ${cube.name}.${def.name} refers to itself` }]);
  }
  // Model SQL is rendered as memberSql renders a dimension's: {CUBE}, {dimension}, bare columns.
  const rowSql = (sql: string) => memberSql(dialect, cube, asDimension(def.name, sql), multiplied);
  if (def.type === "number") {
    if (IDENTIFIER.test(def.sql!)) return rowSql(def.sql!);
    const alias = dialect.quoteIdentifier(cube.name);
    return dialect.modelSql(def.sql!).replace(SQL_REFERENCE, (_t, head: string) => {
      if (head === "CUBE") return alias;
      const inner = cube.measures.get(head);
      if (inner) return `(${filteredMeasureSql(dialect, cube, inner, multiplied, condition, depth + 1)})`;
      return `(${memberSql(dialect, cube, cube.dimensions.get(head)!, multiplied)})`;
    });
  }
  const conditions = [...def.filters.map((f) => rowSql(f)), `(${condition})`].join(" AND ");
  const when = (value: string) => `CASE WHEN ${conditions} THEN ${value} END`;
  switch (def.type) {
    case "count":
      if (multiplied) return `count(DISTINCT ${when(rowSql(primaryKeyOf(cube)!.sql))})`;
      return `count(${when(def.sql === undefined ? "1" : rowSql(def.sql))})`;
    case "count_distinct":
      return `count(DISTINCT ${when(rowSql(def.sql!))})`;
    case "sum":
    case "avg":
    case "min":
    case "max":
      return `${def.type}(${when(rowSql(def.sql!))})`;
  }
}

function asDimension(name: string, sql: string): Dimension {
  return { kind: "dimension", name, sql, type: "number", primaryKey: false, title: name };
}
