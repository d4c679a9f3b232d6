/**
 * Display formatting of result values in the viewer's locale and time zone: a report's
 * column format (currency, percent, number with decimal places) wins; otherwise the member's
 * annotated type decides.
 */
import type { ColumnFormatOverride } from "../../../schema/dashboard";
import type { TimePart } from "../../../schema/semantic-query";
import { timePartLabel } from "../../../schema/time-part-labels";
import { formatCurrency, formatDateTime, formatNumber, formatPercent, type SupportedLocale } from "../../i18n";

export interface CellFormatContext {
  locale: SupportedLocale;
  /** IANA zone of the query; values arrive as wall-clock time in it. */
  timezone: string | null;
  /** ISO 4217 code for `currency` formats. */
  currency?: string;
}

/** Granularity of a time column `view.member.grain`, if it has one. */
export function granularityOfColumn(key: string): string | undefined {
  const parts = key.split(".");
  return parts.length === 3 ? parts[2] : undefined;
}

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A time value as a Date whose UTC fields are the wall-clock digits. Query results carry
 * wall time in the query's zone; formatting them with timeZone "UTC" shows those digits
 * as they are instead of shifting them into the browser's zone.
 */
export function wallTimeToDate(value: string): Date | null {
  const m = WALL_TIME.exec(value.trim());
  if (!m) return null;
  if (m[7]) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)));
}

function dateOptions(granularity: string | undefined): Intl.DateTimeFormatOptions {
  switch (granularity) {
    case "year":
      return { year: "numeric" };
    case "quarter":
    case "month":
      return { year: "numeric", month: "short" };
    case "week":
    case "day":
      return { dateStyle: "medium" };
    case "hour":
    case "minute":
      return { dateStyle: "medium", timeStyle: "short" };
    default:
      return { dateStyle: "medium", timeStyle: "short" };
  }
}

export function formatTimeValue(value: string, granularity: string | undefined, ctx: CellFormatContext): string {
  const date = wallTimeToDate(value);
  if (!date) return value;
  if (granularity === "quarter") {
    const q = Math.floor(date.getUTCMonth() / 3) + 1;
    return `Q${q} ${formatDateTime(ctx.locale, "UTC", date, { year: "numeric" })}`;
  }
  // Offset-carrying values are instants: show them in the viewer's zone.
  const zone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(value.trim()) ? ctx.timezone : "UTC";
  return formatDateTime(ctx.locale, zone, date, dateOptions(granularity));
}

export function formatWithOverride(value: number, format: ColumnFormatOverride, ctx: CellFormatContext, signed = false): string {
  const options = { decimalPlaces: format.decimalPlaces ?? undefined, signed };
  switch (format.type) {
    case "currency":
      return formatCurrency(ctx.locale, value, ctx.currency ?? "USD", options);
    case "percent":
      return formatPercent(ctx.locale, value, options);
    case "number":
      return formatNumber(ctx.locale, value, options);
  }
}

function asNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "" && /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(value.trim())) return Number(value);
  if (typeof value === "bigint") return Number(value);
  return null;
}

/** What `formatCell` reads of a column; `TableColumn` and the chat's answer columns are ones. */
export interface CellColumn {
  key: string;
  /** The annotated type (`number`, `time`, `string`, `boolean`). */
  type?: string;
  /** The report's own format for the column: it wins. */
  format?: ColumnFormatOverride | null;
  /** The annotation's format (`percent`, `currency`, `number`). */
  annotationFormat?: string;
  /** A difference (a change between periods): shown with its sign. */
  signed?: boolean;
  timePart?: TimePart;
  /** Raw value → the text shown for it in the viewer's locale (the answer's `valueLabels`: translations, country names). */
  valueLabels?: Readonly<Record<string, string>>;
}

/**
 * Formats one cell. `type` is the member's annotated type (`number`, `time`, `string`,
 * `boolean`, or a measure type like `sum`); `key` lets time columns use their granularity.
 */
export function formatCell(value: unknown, column: CellColumn, ctx: CellFormatContext): string {
  if (value === null || value === undefined || value === "") return "–";
  if (typeof value === "string" && column.valueLabels && Object.hasOwn(column.valueLabels, value)) return column.valueLabels[value]!;
  const n = asNumber(value);
  const signed = column.signed === true;
  if (column.timePart && n !== null) return timePartLabel(ctx.locale, column.timePart, n);
  if (column.format && n !== null) return formatWithOverride(n, column.format, ctx, signed);
  if (column.type === "time" && typeof value === "string") return formatTimeValue(value, granularityOfColumn(column.key), ctx);
  // 0.25 reads "25 %" (and 0.256 "25.6 %"): a share needs no trailing zeros.
  if (column.annotationFormat === "percent" && n !== null) return formatPercent(ctx.locale, n, { maxDecimalPlaces: 1, signed });
  if (column.annotationFormat === "currency" && n !== null) return formatCurrency(ctx.locale, n, ctx.currency ?? "USD", { signed });
  if (typeof value === "boolean") return String(value);
  // Identifiers ("order_id") are names, not quantities: no digit grouping.
  if (n !== null && !column.format && /(?:^|[._])id$/i.test(column.key)) return String(value);
  if (n !== null && column.type !== "string")
    return formatNumber(ctx.locale, n, Number.isInteger(n) ? { signed } : { decimalPlaces: Math.abs(n) >= 100 ? 0 : 2, signed });
  return String(value);
}

/** Numeric value of a cell for sorting and charts; null for non-numbers. */
export function numericValue(value: unknown): number | null {
  return asNumber(value);
}
