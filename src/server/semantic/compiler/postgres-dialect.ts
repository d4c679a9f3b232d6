import { Dialect, type ZoneBinding } from "./dialect";

export class PostgresDialect extends Dialect {
  readonly name = "postgres";

  /** Postgres converts per row with AT TIME ZONE, which is cheap there. */
  protected zonedWallTime(expression: string, zone: ZoneBinding): string {
    return `(${this.cast(expression, "timestamptz")} AT TIME ZONE ${zone.parameter()})`;
  }

  /** generate_series is set-returning in Postgres: in a SELECT list it yields one row per value. */
  timestampSeriesSelect(start: string, end: string, step: string, column: string): string {
    return `SELECT generate_series(${start}, ${end}, ${step}) AS ${column}`;
  }
}
