import { IDENTIFIER, SQL_REFERENCE, type Cube, type Dimension, type Measure } from "../data-model";
import { QueryValidationError } from "../errors";
import type { Dialect } from "./dialect";
import { primaryKeyOf } from "./join-tree";

/**
 * SQL of a dimension (a row value) or a measure (an aggregate) with the model's `{CUBE}` and
 * `{member}` references filled in. `multiplied`: the cube's rows are repeated by a join, so a
 * count goes by distinct primary key.
 */
export function memberSql(dialect: Dialect, cube: Cube, def: Dimension | Measure, multiplied: boolean, depth = 0): string {
  if (depth > 16) {
    throw new QueryValidationError([{ path: [], code: "unknown_member", message: `member ${cube.name}.${def.name} refers to itself` }]);
  }
  const alias = dialect.quoteIdentifier(cube.name);
  const render = (sql: string) =>
    IDENTIFIER.test(sql)
      ? `${alias}.${dialect.quoteIdentifier(sql)}`
      : dialect.modelSql(sql).replace(SQL_REFERENCE, (_t, head: string) => {
          if (head === "CUBE") return alias;
          const ref = cube.dimensions.get(head) ?? cube.measures.get(head)!;
          return `(${memberSql(dialect, cube, ref, multiplied, depth + 1)})`;
        });
  // Parenthesized so that an expression ("{CUBE}.amount >= 50") stays one operand.
  if (def.kind === "dimension") return IDENTIFIER.test(def.sql) ? render(def.sql) : `(${render(def.sql)})`;
  const conditions = def.filters.map((f) => `(${render(f)})`);
  const when = (value: string) => (conditions.length ? `CASE WHEN ${conditions.join(" AND ")} THEN ${value} END` : value);
  switch (def.type) {
    case "count": {
      if (multiplied) return `count(DISTINCT ${when(render(primaryKeyOf(cube)!.sql))})`;
      if (def.sql === undefined) return conditions.length ? `count(${when("1")})` : "count(*)";
      return `count(${when(render(def.sql))})`;
    }
    case "count_distinct":
      return `count(DISTINCT ${when(render(def.sql!))})`;
    case "sum":
    case "avg":
    case "min":
    case "max":
      return `${def.type}(${when(render(def.sql!))})`;
    case "number":
      return render(def.sql!);
  }
}
