import type { Dialect, SqlDialect } from "./dialect";
import { DuckDbDialect } from "./duckdb-dialect";
import { MySqlDialect } from "./mysql-dialect";
import { PostgresDialect } from "./postgres-dialect";

const DIALECTS: Record<SqlDialect, Dialect> = {
  duckdb: new DuckDbDialect(),
  postgres: new PostgresDialect(),
  mysql: new MySqlDialect(),
};

/** The dialect of a data source; dialects hold no state, so one of each serves every query. */
export function dialectFor(name: SqlDialect): Dialect {
  return DIALECTS[name];
}
