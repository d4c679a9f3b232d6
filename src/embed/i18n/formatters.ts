/**
 * Intl formatter factories keyed by locale and time zone. Formatter construction is costly
 * and widgets format thousands of cells, so instances are cached per option set.
 */
import type { SupportedLocale } from "./locales";

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** Cached Intl.NumberFormat for a locale and options. */
export function getNumberFormat(locale: SupportedLocale, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = numberFormatKey(locale, options);
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

const NUMBER_KEY_FIELDS = new Set(["style", "currency", "minimumFractionDigits", "maximumFractionDigits", "signDisplay"]);

/** The cache key of a number format: called for every cell of a table, so no JSON for the usual options. */
function numberFormatKey(locale: string, options: Intl.NumberFormatOptions): string {
  for (const field in options) if (!NUMBER_KEY_FIELDS.has(field)) return JSON.stringify([locale, options]);
  return `${locale}|${options.style ?? ""}|${options.currency ?? ""}|${options.minimumFractionDigits ?? ""}|${options.maximumFractionDigits ?? ""}|${options.signDisplay ?? ""}`;
}

/**
 * Cached Intl.DateTimeFormat for a locale, time zone (IANA; null = the viewer's own zone)
 * and options.
 */
export function getDateTimeFormat(
  locale: SupportedLocale,
  timeZone: string | null,
  options: Intl.DateTimeFormatOptions = { dateStyle: "medium" },
): Intl.DateTimeFormat {
  const key = JSON.stringify([locale, timeZone, options]);
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, timeZone ? { ...options, timeZone } : options);
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** Options of the formatter factory functions. */
export interface FormatOptions {
  /** Fixed number of decimal places; when omitted Intl's defaults apply. */
  decimalPlaces?: number | null;
  /** At most this many decimal places (fewer when they are zeros); ignored beside `decimalPlaces`. */
  maxDecimalPlaces?: number;
  /** A difference: a plus sign on gains as a minus on losses (zero unsigned). */
  signed?: boolean;
}

function decimals(options: FormatOptions | undefined): Intl.NumberFormatOptions {
  const places = options?.decimalPlaces;
  const sign: Intl.NumberFormatOptions = options?.signed ? { signDisplay: "exceptZero" } : {};
  if (places !== undefined && places !== null) return { minimumFractionDigits: places, maximumFractionDigits: places, ...sign };
  if (options?.maxDecimalPlaces !== undefined) return { minimumFractionDigits: 0, maximumFractionDigits: options.maxDecimalPlaces, ...sign };
  return sign;
}

export function formatNumber(locale: SupportedLocale, value: number, options?: FormatOptions): string {
  return getNumberFormat(locale, decimals(options)).format(value);
}

/** Formats a ratio (0.25 → 25 %). */
export function formatPercent(locale: SupportedLocale, ratio: number, options?: FormatOptions): string {
  return getNumberFormat(locale, { style: "percent", ...decimals(options) }).format(ratio);
}

/** Formats an amount in an ISO 4217 currency (default USD). */
export function formatCurrency(locale: SupportedLocale, value: number, currency = "USD", options?: FormatOptions): string {
  return getNumberFormat(locale, { style: "currency", currency, ...decimals(options) }).format(value);
}

/** Formats a date, timestamp or ISO string in a locale and time zone. */
export function formatDateTime(locale: SupportedLocale, timeZone: string | null, value: Date | number | string, options?: Intl.DateTimeFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return getDateTimeFormat(locale, timeZone, options).format(date);
}
