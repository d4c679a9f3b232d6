import type { Granularity, TimePart } from "../../../schema/semantic-query";
import type { ParameterValue } from "./parameters";

/** Engines the semantic layer writes SQL for. */
export type SqlDialect = "duckdb" | "postgres" | "mysql";

/**
 * Types the compiler casts to. `number` is the type a numeric filter value is bound as; it is
 * the one whose spelling differs between engines.
 */
export type SqlType = "timestamp" | "timestamptz" | "varchar" | "text" | "boolean" | "double" | "integer" | "number";

/** Which end of a value a LIKE pattern anchors. */
export type LikeMatch = "contains" | "startsWith" | "endsWith";

/** The query's time zone as SQL sees it. */
export interface ZoneBinding {
  /** IANA name. */
  readonly name: string;
  /** Whether wall time in the zone is UTC, so that naive UTC timestamps need no conversion. */
  readonly utc: boolean;
  /** The zone name as a parameter expression; bound on first use. */
  parameter(): string;
}

/** Where the instants of a column are known to lie (a date range of the query). */
export interface InstantSpan {
  from: Date;
  to: Date;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** "YYYY-MM-DDTHH:mm:ss.sss" of an instant in UTC, for comparison with naive UTC columns. */
function naiveUtc(instant: Date): string {
  return instant.toISOString().slice(0, 23);
}

const TYPE_NAMES: Record<SqlType, string> = {
  timestamp: "TIMESTAMP",
  timestamptz: "TIMESTAMPTZ",
  varchar: "VARCHAR",
  text: "TEXT",
  boolean: "BOOLEAN",
  double: "DOUBLE PRECISION",
  integer: "INTEGER",
  number: "NUMERIC",
};

/** The EXTRACT field of each part of time; a fixed table, so nothing from a query reaches the SQL. */
const TIME_PART_FIELDS: Record<TimePart, string> = {
  dayOfWeek: "ISODOW",
  hourOfDay: "HOUR",
  dayOfMonth: "DAY",
  weekOfYear: "WEEK",
  monthOfYear: "MONTH",
  quarterOfYear: "QUARTER",
};

const GRANULARITY_STEPS: Record<Granularity, string> = {
  second: "1 second",
  minute: "1 minute",
  hour: "1 hour",
  day: "1 day",
  week: "7 days",
  month: "1 month",
  quarter: "3 months",
  year: "1 year",
};

/**
 * Everything the compiler writes that depends on the engine. The SQL both engines accept
 * lives here; a subclass overrides what one of them spells differently.
 */
export abstract class Dialect {
  abstract readonly name: SqlDialect;

  /** Whether booleans come back as 1 and 0 (no boolean type); the query engine reads them back as booleans. */
  readonly booleansAsIntegers: boolean = false;

  /**
   * Whether ORDER BY may use expressions over the aliases of aggregates of the same SELECT
   * (`"x" IS NULL`); where not, a scan is ordered as a derived table's columns.
   */
  readonly ordersByAggregateAliases: boolean = true;

  quoteIdentifier(name: string): string {
    return quoteIdentifier(name);
  }

  /** Placeholder of the parameter at `position` (1-based). */
  placeholder(position: number): string {
    return `$${position}`;
  }

  /** The statement as the engine binds it: numbered placeholders are bound as they are. */
  bindPositional(statement: { sql: string; params: ParameterValue[] }): { sql: string; params: ParameterValue[] } {
    return statement;
  }

  cast(expression: string, type: SqlType): string {
    return `CAST(${expression} AS ${this.typeName(type)})`;
  }

  protected typeName(type: SqlType): string {
    return TYPE_NAMES[type];
  }

  /**
   * SQL written in the model (a member's `sql`, a measure's filters) as this engine reads it.
   * The model's SQL is the engine's own; a dialect only respells the few standard forms its
   * engine does not take.
   */
  modelSql(sql: string): string {
    return sql;
  }

  /** Parameter value of an instant, compared with naive TIMESTAMP columns that hold UTC. */
  instantValue(instant: Date): string {
    return naiveUtc(instant);
  }

  /** A TIMESTAMP literal; only ever built from a Date (no outside text reaches it). */
  timestampLiteral(instant: Date): string {
    return `TIMESTAMP '${naiveUtc(instant).replace("T", " ")}'`;
  }

  /** Distance between two consecutive buckets of a granularity. */
  granularityStep(granularity: Granularity): string {
    return `INTERVAL '${GRANULARITY_STEPS[granularity]}'`;
  }

  /** How far a period comparison looks; `amount` is a validated integer, so inlining it cannot carry SQL. */
  shiftInterval(amount: number, unit: Granularity): string {
    const [n, u] = unit === "quarter" ? [amount * 3, "months"] : unit === "week" ? [amount * 7, "days"] : [amount, `${unit}s`];
    return `INTERVAL '${n} ${u}'`;
  }

  /** A part of time of a wall time, as an integer (ISO weekday and week, the same in both dialects). */
  timePart(part: TimePart, timestamp: string): string {
    return `CAST(EXTRACT(${TIME_PART_FIELDS[part]} FROM ${timestamp}) AS INTEGER)`;
  }

  truncate(granularity: Granularity, timestamp: string): string {
    return `date_trunc('${granularity}', ${timestamp})`;
  }

  /**
   * Wall time in the query zone of a time member's SQL. Naive TIMESTAMP columns hold UTC (the
   * session zone of both data sources), so CAST(x AS TIMESTAMP) is the column itself for them
   * (and a session-zone conversion for TIMESTAMPTZ); in UTC that already is the wall time.
   * `span` is where the rows are known to lie, when the query says so.
   */
  wallTime(expression: string, zone: ZoneBinding, span?: InstantSpan): string {
    if (zone.utc) return this.cast(expression, "timestamp");
    return this.zonedWallTime(expression, zone, span);
  }

  /** Wall time in a zone other than UTC. */
  protected abstract zonedWallTime(expression: string, zone: ZoneBinding, span?: InstantSpan): string;

  /** A pattern matching `value` literally (its wildcards and the escape character escaped). */
  likePattern(value: string, match: LikeMatch): string {
    const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
    return match === "contains" ? `%${escaped}%` : match === "startsWith" ? `${escaped}%` : `%${escaped}`;
  }

  /** Case-insensitive match of `subject` against a pattern from `likePattern`. */
  like(subject: string, pattern: string, negate: boolean): string {
    return `${subject} ${negate ? "NOT ILIKE" : "ILIKE"} ${pattern} ESCAPE '\\'`;
  }

  /**
   * A SELECT of one row per step from start to end (both included), as `column`; it is the body
   * of the WITH entry named `self` (quoted), which an engine without a series function recurses on.
   */
  abstract timestampSeriesSelect(start: string, end: string, step: string, column: string, self: string): string;

  /** How a WITH clause starts; `recursive` when one of its entries is a fill's time series. */
  withKeyword(_recursive: boolean): string {
    return "WITH";
  }

  nullSafeEquals(left: string, right: string): string {
    return `${left} IS NOT DISTINCT FROM ${right}`;
  }

  orderTerm(expression: string, direction: "asc" | "desc"): string {
    return `${expression} ${direction.toUpperCase()} NULLS LAST`;
  }

  limit(limit: number, offset: number): string {
    return `LIMIT ${limit}${offset ? ` OFFSET ${offset}` : ""}`;
  }
}
