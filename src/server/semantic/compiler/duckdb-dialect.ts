import { OFFSET_WINDOW, zoneOffsetSegments, type OffsetSegment } from "../date-range";
import { Dialect, type InstantSpan, type SqlType, type ZoneBinding } from "./dialect";

export class DuckDbDialect extends Dialect {
  readonly name = "duckdb";

  protected override typeName(type: SqlType): string {
    // DuckDB's NUMERIC is DECIMAL(18,3): a filter value bound as it would lose digits.
    return type === "number" ? "DOUBLE" : super.typeName(type);
  }

  /**
   * The zone's offsets over the rows' span are worked out at compile time and picked per row by
   * a CASE over constant instants (integer arithmetic, no per-row zone lookup); rows outside
   * that span fall back to timezone(), which looks the zone up row by row.
   */
  protected zonedWallTime(expression: string, zone: ZoneBinding, span?: InstantSpan): string {
    const naive = this.cast(expression, "timestamp");
    const fallback = `timezone(${zone.parameter()}, ${this.cast(expression, "timestamptz")})`;
    const from = span?.from ?? OFFSET_WINDOW.from;
    const to = span?.to ?? OFFSET_WINDOW.to;
    const segments = zoneOffsetSegments(zone.name, from, to);
    if (!segments.length) return fallback;
    const lo = this.timestampLiteral(segments[0]!.start);
    const hi = this.timestampLiteral(new Date(Math.min(to.getTime(), OFFSET_WINDOW.to.getTime())));
    const shifted = `make_timestamp(epoch_us(${naive}) + ${this.offsetTree(naive, segments)})`;
    return `CASE WHEN ${naive} >= ${lo} AND ${naive} < ${hi} THEN ${shifted} ELSE ${fallback} END`;
  }

  /** Microsecond offset of the segment `naive` falls in, as a balanced CASE (log₂ n comparisons a row). */
  private offsetTree(naive: string, segments: OffsetSegment[]): string {
    const build = (lo: number, hi: number): string => {
      if (lo === hi) return String(segments[lo]!.offsetMs * 1000);
      const mid = Math.ceil((lo + hi + 1) / 2);
      return `CASE WHEN ${naive} < ${this.timestampLiteral(segments[mid]!.start)} THEN ${build(lo, mid - 1)} ELSE ${build(mid, hi)} END`;
    };
    return build(0, segments.length - 1);
  }

  /** generate_series is a list-valued scalar function in DuckDB; unnest turns it into rows. */
  // The table function streams and stops at an interrupt; unnest(generate_series(…)) builds
  // the whole list first and cannot be interrupted.
  timestampSeriesSelect(start: string, end: string, step: string, column: string): string {
    return `SELECT "series"."bucket" AS ${column} FROM generate_series(${start}, ${end}, ${step}) AS "series"("bucket")`;
  }
}
