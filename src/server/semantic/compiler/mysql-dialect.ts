import type { Granularity, TimePart } from "../../../schema/semantic-query";
import { OFFSET_WINDOW, zoneOffsetSegments, type OffsetSegment } from "../date-range";
import { Dialect, type InstantSpan, type LikeMatch, type SqlType, type ZoneBinding } from "./dialect";
import type { ParameterValue } from "./parameters";

/**
 * MySQL 8.0.17+ (CAST AS DOUBLE) and MariaDB 10.4+. No time zone type: naive DATETIME columns hold UTC (the data
 * source's session zone is UTC, so TIMESTAMP columns read as UTC as well).
 */
const TYPE_NAMES: Record<SqlType, string> = {
  timestamp: "DATETIME(6)",
  timestamptz: "DATETIME(6)",
  varchar: "CHAR",
  text: "CHAR",
  boolean: "",
  double: "DOUBLE",
  integer: "SIGNED",
  // As in DuckDB: a filter value bound as DECIMAL would lose digits.
  number: "DOUBLE",
};

/** Functions of a part of time; a fixed table, so nothing from a query reaches the SQL. ISO weekday and week as the other dialects. */
const TIME_PARTS: Record<TimePart, (x: string) => string> = {
  dayOfWeek: (x) => `(WEEKDAY(${x}) + 1)`,
  hourOfDay: (x) => `HOUR(${x})`,
  dayOfMonth: (x) => `DAYOFMONTH(${x})`,
  weekOfYear: (x) => `WEEK(${x}, 3)`,
  monthOfYear: (x) => `MONTH(${x})`,
  quarterOfYear: (x) => `QUARTER(${x})`,
};

const UNITS: Record<Granularity, string> = {
  second: "SECOND",
  minute: "MINUTE",
  hour: "HOUR",
  day: "DAY",
  week: "WEEK",
  month: "MONTH",
  quarter: "QUARTER",
  year: "YEAR",
};

/** The wall time a bucket starts at, as DATE_FORMAT writes it (week and quarter start from day and year). */
const BUCKET_FORMATS: Record<Exclude<Granularity, "week" | "quarter">, string> = {
  second: "%Y-%m-%d %H:%i:%s",
  minute: "%Y-%m-%d %H:%i:00",
  hour: "%Y-%m-%d %H:00:00",
  day: "%Y-%m-%d 00:00:00",
  month: "%Y-%m-01 00:00:00",
  year: "%Y-01-01 00:00:00",
};

/**
 * A placeholder while the statement is written: clauses written once may be used in several
 * places (the access rules of each scan of a comparison), and `?` binds by position of
 * appearance, so the numbered markers become `?`s, and their values a list in that order, at
 * the end. The markers are private-use characters no SQL of a model has.
 */
const MARK_OPEN = "\uE000";
const MARK_CLOSE = "\uE001";
const MARKER = /\uE000(\d+)\uE001/g;

/** A quoted string or identifier (kept), or a spelling MySQL's CAST does not take (group 1 unset). */
const MODEL_SQL_RESPELLINGS = /('(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|`(?:[^`]|``)*`)|\bAS\s+DOUBLE\s+PRECISION\b/gi;

/** Escape character of LIKE patterns: not the backslash, whose meaning in literals depends on sql_mode. */
const LIKE_ESCAPE = "!";

export class MySqlDialect extends Dialect {
  readonly name = "mysql";
  override readonly booleansAsIntegers = true;
  override readonly ordersByAggregateAliases = false;

  override quoteIdentifier(name: string): string {
    return `\`${name.replace(/`/g, "``")}\``;
  }

  override placeholder(position: number): string {
    return `${MARK_OPEN}${position}${MARK_CLOSE}`;
  }

  override bindPositional(statement: { sql: string; params: ParameterValue[] }): { sql: string; params: ParameterValue[] } {
    const params: ParameterValue[] = [];
    const sql = statement.sql.replace(MARKER, (_m, n: string) => {
      params.push(statement.params[Number(n) - 1]!);
      return "?";
    });
    return { sql, params };
  }

  /** MySQL has no boolean type (TRUE is 1); a boolean value is used as it is. */
  override cast(expression: string, type: SqlType): string {
    if (type === "boolean") return `(${expression})`;
    return super.cast(expression, type);
  }

  protected override typeName(type: SqlType): string {
    return TYPE_NAMES[type];
  }

  /**
   * `CAST(… AS DOUBLE PRECISION)`, the standard spelling Postgres and DuckDB take, is
   * `CAST(… AS DOUBLE)` here (neither MySQL nor MariaDB takes the long form in a CAST). Quoted
   * strings and identifiers are left as they are.
   */
  override modelSql(sql: string): string {
    return sql.replace(MODEL_SQL_RESPELLINGS, (match: string, quoted: string | undefined) => (quoted ? match : "AS DOUBLE"));
  }

  override granularityStep(granularity: Granularity): string {
    return `INTERVAL 1 ${UNITS[granularity]}`;
  }

  override shiftInterval(amount: number, unit: Granularity): string {
    return `INTERVAL ${amount} ${UNITS[unit]}`;
  }

  override timePart(part: TimePart, timestamp: string): string {
    return TIME_PARTS[part](timestamp);
  }

  /** The bucket's start as DATETIME(6), the type of every wall time here. */
  override truncate(granularity: Granularity, timestamp: string): string {
    const start = (x: string, format: string) => `CAST(DATE_FORMAT(${x}, '${format}') AS DATETIME(6))`;
    if (granularity === "week") return start(`(${timestamp}) - INTERVAL WEEKDAY(${timestamp}) DAY`, BUCKET_FORMATS.day);
    if (granularity === "quarter") return `(${start(timestamp, BUCKET_FORMATS.year)} + INTERVAL (QUARTER(${timestamp}) - 1) QUARTER)`;
    return start(timestamp, BUCKET_FORMATS[granularity]);
  }

  /**
   * As in DuckDB, the zone's offsets over the rows' span are worked out at compile time and
   * picked per row by a CASE over constant instants, so no time zone tables are needed in the
   * server. Rows outside that span (before 2000, after 2040) fall back to CONVERT_TZ, which
   * needs the server's time zone tables (NULL without them).
   */
  protected zonedWallTime(expression: string, zone: ZoneBinding, span?: InstantSpan): string {
    const naive = this.cast(expression, "timestamp");
    const fallback = `CONVERT_TZ(${naive}, '+00:00', ${zone.parameter()})`;
    const from = span?.from ?? OFFSET_WINDOW.from;
    const to = span?.to ?? OFFSET_WINDOW.to;
    const segments = zoneOffsetSegments(zone.name, from, to);
    if (!segments.length) return fallback;
    const lo = this.timestampLiteral(segments[0]!.start);
    const hi = this.timestampLiteral(new Date(Math.min(to.getTime(), OFFSET_WINDOW.to.getTime())));
    const shifted = `(${naive} + INTERVAL ${this.offsetTree(naive, segments)} MICROSECOND)`;
    return `CASE WHEN ${naive} >= ${lo} AND ${naive} < ${hi} THEN ${shifted} ELSE ${fallback} END`;
  }

  /** Microsecond offset of the segment `naive` falls in, as a balanced CASE (log₂ n comparisons a row). */
  private offsetTree(naive: string, segments: OffsetSegment[]): string {
    const build = (lo: number, hi: number): string => {
      if (lo === hi) return String(segments[lo]!.offsetMs * 1000);
      const mid = Math.ceil((lo + hi + 1) / 2);
      return `(CASE WHEN ${naive} < ${this.timestampLiteral(segments[mid]!.start)} THEN ${build(lo, mid - 1)} ELSE ${build(mid, hi)} END)`;
    };
    return build(0, segments.length - 1);
  }

  override likePattern(value: string, match: LikeMatch): string {
    const escaped = value.replace(/[!%_]/g, (c) => `${LIKE_ESCAPE}${c}`);
    return match === "contains" ? `%${escaped}%` : match === "startsWith" ? `${escaped}%` : `%${escaped}`;
  }

  /** Case-insensitive whatever the column's collation. */
  override like(subject: string, pattern: string, negate: boolean): string {
    return `LOWER(${subject}) ${negate ? "NOT LIKE" : "LIKE"} LOWER(${pattern}) ESCAPE '${LIKE_ESCAPE}'`;
  }

  /**
   * No generate_series: the WITH entry recurses on itself from the first bucket to the last
   * (bucket starts, so a month step never drifts). It is a top-level entry, as a WITH nested in
   * a derived table cannot read the statement's other entries in MariaDB. The data source lifts
   * the server's recursion limit.
   */
  timestampSeriesSelect(start: string, end: string, step: string, column: string, self: string): string {
    return [
      `SELECT ${this.cast(start, "timestamp")} AS ${column}`,
      `UNION ALL`,
      `SELECT ${column} + ${step} FROM ${self} WHERE ${column} + ${step} <= ${end}`,
    ].join("\n");
  }

  override withKeyword(recursive: boolean): string {
    return recursive ? "WITH RECURSIVE" : "WITH";
  }

  override nullSafeEquals(left: string, right: string): string {
    return `${left} <=> ${right}`;
  }

  /** NULL sorts first in MySQL: ascending puts it last by a leading IS NULL; descending already does. */
  override orderTerm(expression: string, direction: "asc" | "desc"): string {
    return direction === "asc" ? `${expression} IS NULL, ${expression} ASC` : `${expression} DESC`;
  }
}
