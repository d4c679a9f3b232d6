import type { Granularity } from "../../schema/semantic-query";

/**
 * Calendar arithmetic happens on "local wall time" values, stored as a Date whose UTC fields
 * are the wall-clock fields in the query's time zone. Only at the edge (bound parameters)
 * are they turned into real instants with `zonedWallTimeToInstant`.
 */
export type WallTime = Date;

/** An IANA zone name ("Europe/Berlin", "UTC"); bare UTC offsets are not zones and are refused. */
export function isValidTimeZone(tz: string): boolean {
  if (!/^(UTC|GMT|[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)+)$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall time in `tz` at `instant`. */
export function instantToWallTime(instant: Date, tz: string): WallTime {
  // UTC's wall clock is the instant itself (the common case: no formatter needed).
  if (tz === "UTC" || tz === "Etc/UTC" || tz === "GMT") return new Date(instant.getTime());
  const parts: Record<string, number> = {};
  for (const p of formatterFor(tz).formatToParts(instant)) if (p.type !== "literal") parts[p.type] = Number(p.value);
  return new Date(Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!, instant.getUTCMilliseconds()));
}

/**
 * The instant at which the clock in `tz` shows `wall`. A wall time that does not exist
 * (spring-forward gap) maps to the instant just after the gap; an ambiguous one (fall-back)
 * to its first occurrence.
 */
export function zonedWallTimeToInstant(wall: WallTime, tz: string): Date {
  const target = wall.getTime();
  let guess = target;
  for (let i = 0; i < 3; i++) {
    const offset = instantToWallTime(new Date(guess), tz).getTime() - guess;
    const next = target - offset;
    if (next === guess) break;
    guess = next;
  }
  // Prefer the earlier of two candidates when the wall time occurs twice.
  const earlier = guess - 3600_000;
  if (instantToWallTime(new Date(earlier), tz).getTime() === target) return new Date(earlier);
  return new Date(guess);
}

/** "YYYY-MM-DDTHH:mm:ss.sss" without zone, as returned for truncated time dimensions. */
export function formatWallTime(wall: WallTime): string {
  return wall.toISOString().slice(0, 23);
}

const ABSOLUTE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

export interface ParsedDate {
  /** Wall time in the query zone, or an exact instant when the string carried a zone. */
  wall?: WallTime;
  instant?: Date;
  dateOnly: boolean;
}

/**
 * Years a date in a query may have. Both engines and JavaScript agree on every day between
 * them; beyond, a bound plus a day or a period (year 10000) fails in DuckDB and in Postgres'
 * zone arithmetic, and years below 100 are read by Date.UTC as 19xx.
 */
export const MIN_QUERY_YEAR = 1000;
export const MAX_QUERY_YEAR = 9998;
export const DATE_BOUNDS_TEXT = `dates must lie between ${MIN_QUERY_YEAR}-01-01 and ${MAX_QUERY_YEAR}-12-31`;

/** Whether an instant or wall time lies within the query years (bounds and period shifts included). */
export function withinQueryYears(d: Date): boolean {
  const y = d.getUTCFullYear();
  return y >= MIN_QUERY_YEAR && (y <= MAX_QUERY_YEAR || (y === MAX_QUERY_YEAR + 1 && d.getTime() === Date.UTC(MAX_QUERY_YEAR + 1, 0, 1)));
}

/**
 * Parses "2024-03-31", "2024-03-31T10:00", "2024-03-31T10:00:00Z", … ; undefined if malformed
 * or outside the query years.
 */
export function parseAbsoluteDate(text: string): ParsedDate | undefined {
  const m = ABSOLUTE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (Number(y) < MIN_QUERY_YEAR || Number(y) > MAX_QUERY_YEAR) return undefined;
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), Math.floor(Number(`0.${frac ?? 0}`) * 1000)] as const;
  const wall = new Date(Date.UTC(...fields));
  // Reject 2024-02-30 and friends: Date.UTC would silently roll them over.
  if (wall.getUTCMonth() !== fields[1] || wall.getUTCDate() !== fields[2] || fields[3] > 23 || fields[4] > 59 || fields[5] > 59) return undefined;
  if (zone) {
    const offsetMin = zone === "Z" ? 0 : (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
    return { instant: new Date(wall.getTime() - offsetMin * 60_000), dateOnly: false };
  }
  return { wall, dateOnly: h === undefined };
}

type Unit = "day" | "week" | "month" | "quarter" | "year";

/** Start of the period containing `wall` (weeks start on Monday, like date_trunc). */
export function truncateWallTime(wall: WallTime, unit: Granularity): WallTime {
  const d = new Date(wall.getTime());
  switch (unit) {
    case "year":
      return new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
    case "quarter":
      return new Date(Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1));
    case "month":
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
    case "week": {
      const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      const dow = (day.getUTCDay() + 6) % 7;
      return new Date(day.getTime() - dow * 86_400_000);
    }
    case "day":
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
    case "hour":
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()));
    case "minute":
      return new Date(Math.floor(d.getTime() / 60_000) * 60_000);
    case "second":
      return new Date(Math.floor(d.getTime() / 1000) * 1000);
  }
}

/** Calendar addition on wall time (months clamp nothing: periods are always truncated first). */
export function addToWallTime(wall: WallTime, amount: number, unit: Granularity): WallTime {
  const d = new Date(wall.getTime());
  switch (unit) {
    case "year":
      d.setUTCFullYear(d.getUTCFullYear() + amount);
      return d;
    case "quarter":
      d.setUTCMonth(d.getUTCMonth() + 3 * amount);
      return d;
    case "month":
      d.setUTCMonth(d.getUTCMonth() + amount);
      return d;
    case "week":
      return new Date(d.getTime() + amount * 7 * 86_400_000);
    case "day":
      return new Date(d.getTime() + amount * 86_400_000);
    case "hour":
      return new Date(d.getTime() + amount * 3_600_000);
    case "minute":
      return new Date(d.getTime() + amount * 60_000);
    case "second":
      return new Date(d.getTime() + amount * 1000);
  }
}

/** A resolved range: wall-time bounds, start inclusive, end exclusive. */
export interface WallRange {
  start: WallTime;
  end: WallTime;
}

const UNIT = "(day|week|month|quarter|year)s?";
const RELATIVE_SINGLE = new RegExp(`^(this|last|next) ${UNIT}$`);
const RELATIVE_N = new RegExp(`^(last|next) (\\d{1,4}) ${UNIT}$`);

/**
 * Resolves a relative range ("today", "yesterday", "tomorrow", "this month", "last year",
 * "next quarter", "last 7 days", "next 2 weeks") against `now` in `tz`.
 * "last N units" are the N complete units before the current one (today is not included).
 */
export function resolveRelativeRange(text: string, tz: string, now: Date): WallRange | undefined {
  const phrase = text.trim().toLowerCase().replace(/\s+/g, " ");
  const today = truncateWallTime(instantToWallTime(now, tz), "day");
  if (phrase === "today") return { start: today, end: addToWallTime(today, 1, "day") };
  if (phrase === "yesterday") return { start: addToWallTime(today, -1, "day"), end: today };
  if (phrase === "tomorrow") return { start: addToWallTime(today, 1, "day"), end: addToWallTime(today, 2, "day") };
  let m = RELATIVE_SINGLE.exec(phrase);
  if (m) {
    const unit = m[2] as Unit;
    const current = truncateWallTime(today, unit);
    const shift = m[1] === "this" ? 0 : m[1] === "last" ? -1 : 1;
    const start = addToWallTime(current, shift, unit);
    return { start, end: addToWallTime(start, 1, unit) };
  }
  m = RELATIVE_N.exec(phrase);
  if (m) {
    const n = Number(m[2]);
    if (n < 1) return undefined;
    const unit = m[3] as Unit;
    const current = truncateWallTime(today, unit);
    return m[1] === "last"
      ? { start: addToWallTime(current, -n, unit), end: current }
      : { start: addToWallTime(current, 1, unit), end: addToWallTime(current, 1 + n, unit) };
  }
  return undefined;
}

/** Exact instants of a range: start inclusive, end exclusive; plus its wall-time form. */
export interface ResolvedRange {
  from: Date;
  to: Date;
  wall: WallRange;
}

/**
 * Resolves a query `dateRange` (relative phrase or [from, to]) in `tz`. A date-only `to`
 * includes that whole day; a timestamp `to` is inclusive to the millisecond.
 */
export function resolveDateRange(range: string | string[], tz: string, now: Date): ResolvedRange | string {
  if (typeof range === "string") {
    const wall = resolveRelativeRange(range, tz, now);
    if (!wall) return `unknown relative date range "${range}" (try "today", "last 7 days", "this month", "last year")`;
    if (!withinQueryYears(wall.start) || !withinQueryYears(wall.end)) return `"${range}" reaches beyond the dates a query may use: ${DATE_BOUNDS_TEXT}`;
    return { wall, from: zonedWallTimeToInstant(wall.start, tz), to: zonedWallTimeToInstant(wall.end, tz) };
  }
  if (range.length !== 2) return "a date range is [from, to]";
  const from = parseAbsoluteDate(range[0]!);
  const to = parseAbsoluteDate(range[1]!);
  if (!from) return `"${range[0]}" is not a date (YYYY-MM-DD or ISO 8601; ${DATE_BOUNDS_TEXT})`;
  if (!to) return `"${range[1]}" is not a date (YYYY-MM-DD or ISO 8601; ${DATE_BOUNDS_TEXT})`;
  const fromInstant = from.instant ?? zonedWallTimeToInstant(from.wall!, tz);
  const toInstant = to.instant
    ? new Date(to.instant.getTime() + 1)
    : zonedWallTimeToInstant(to.dateOnly ? addToWallTime(to.wall!, 1, "day") : new Date(to.wall!.getTime() + 1), tz);
  if (toInstant.getTime() <= fromInstant.getTime()) return "the end of the date range is before its start";
  return {
    from: fromInstant,
    to: toInstant,
    wall: { start: instantToWallTime(fromInstant, tz), end: instantToWallTime(toInstant, tz) },
  };
}

/** From `start` on (until the next segment), wall time in the zone is UTC plus `offsetMs`. */
export interface OffsetSegment {
  start: Date;
  offsetMs: number;
}

/**
 * Offsets are worked out per zone and calendar year (cached); queries without a date range
 * use this window, and rows outside it (or outside a query's range) are converted one by one.
 */
export const OFFSET_WINDOW = { from: new Date(Date.UTC(2000, 0, 1)), to: new Date(Date.UTC(2040, 0, 1)) } as const;
const DAY_MS = 86_400_000;
const yearCache = new Map<string, OffsetSegment[]>();
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** UTC offset of `tz` at the whole second at or before `instantMs`. */
function offsetAt(instantMs: number, tz: string): number {
  let f = offsetFormatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "longOffset" });
    offsetFormatters.set(tz, f);
  }
  // "1/1/2024, GMT+05:45"; plain "GMT" at offset zero.
  const m = /GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(f.format(new Date(Math.floor(instantMs / 1000) * 1000)));
  if (!m || !m[1]) return 0;
  const sign = m[1] === "-" ? -1 : 1;
  return sign * ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4] ?? 0)) * 1000;
}

/**
 * Segments of one calendar year, the first starting on January 1st 00:00 UTC. Sampled daily,
 * each change narrowed to the second by bisection (a zone that changed its offset and back
 * within one day would lose that change; none does).
 */
function yearSegments(tz: string, year: number): OffsetSegment[] {
  const key = `${tz}|${year}`;
  let segments = yearCache.get(key);
  if (segments) return segments;
  const from = Date.UTC(year, 0, 1);
  const to = Date.UTC(year + 1, 0, 1);
  segments = [{ start: new Date(from), offsetMs: offsetAt(from, tz) }];
  let previous = segments[0]!.offsetMs;
  for (let t = from + DAY_MS; t <= to; t += DAY_MS) {
    const at = Math.min(t, to - 1000);
    const offset = offsetAt(at, tz);
    if (offset === previous) continue;
    // The change lies in (at - DAY_MS, at]: find the first second with the new offset.
    let lo = at - DAY_MS;
    let hi = at;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (offsetAt(mid, tz) === previous) lo = mid;
      else hi = mid;
    }
    segments.push({ start: new Date(hi), offsetMs: offset });
    previous = offset;
  }
  yearCache.set(key, segments);
  return segments;
}

/** Whether the zone's wall time is UTC (UTC, Etc/UTC, GMT, …): its offset is zero and never changes. */
export function isUtcLike(tz: string): boolean {
  if (tz === "UTC" || tz === "Etc/UTC") return true;
  const s = yearSegments(tz, 2024);
  return s.length === 1 && s[0]!.offsetMs === 0 && /^(Etc\/)?(GMT|UCT|UTC|Universal|Zulu|Greenwich)(0|[+-]0)?$/.test(tz);
}

/**
 * Offset segments of `tz` covering [from, to) clipped to OFFSET_WINDOW, sorted, adjacent ones
 * with equal offsets merged; the first starts at the clipped `from`. Empty outside the window.
 */
export function zoneOffsetSegments(tz: string, from: Date, to: Date): OffsetSegment[] {
  const lo = Math.max(from.getTime(), OFFSET_WINDOW.from.getTime());
  const hi = Math.min(to.getTime(), OFFSET_WINDOW.to.getTime());
  if (hi <= lo) return [];
  const out: OffsetSegment[] = [];
  for (let year = new Date(lo).getUTCFullYear(); year <= new Date(hi - 1).getUTCFullYear(); year++) {
    const segs = yearSegments(tz, year);
    segs.forEach((s, i) => {
      const start = s.start.getTime();
      const end = i + 1 < segs.length ? segs[i + 1]!.start.getTime() : Date.UTC(year + 1, 0, 1);
      if (end <= lo || start >= hi) return;
      if (out.length && out[out.length - 1]!.offsetMs === s.offsetMs) return;
      out.push({ start: new Date(Math.max(start, lo)), offsetMs: s.offsetMs });
    });
  }
  return out;
}
