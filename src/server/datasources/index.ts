export {
  DatasourceUnavailableError,
  QueryCancelledError,
  QueryExecutionError,
  QueryTimeoutError,
  QueryValueError,
  type DataSource,
  type QueryRunOptions,
  type ResultRow,
} from "./data-source";
export { createDuckDbDataSource, type DuckDbDataSourceOptions } from "./duckdb-data-source";
export { createMySqlDataSource, type MySqlDataSourceOptions } from "./mysql-data-source";
export { createPostgresDataSource, type PostgresDataSourceOptions } from "./postgres-data-source";
