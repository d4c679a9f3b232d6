/**
 * Calendar dates (`YYYY-MM-DD`) written and read as the viewer's locale writes them
 * ("15.03.2025" in German, "15/3/2025" in Spanish, "3/15/2025" in American English,
 * "2025/03/15" in Japanese): the embed's locale, not the browser's, which a native date input
 * follows. Formats come from `Intl.DateTimeFormat`; the field names of the placeholder from
 * `Intl.DisplayNames` ("TT.MM.JJJJ", "DD/MM/AAAA").
 */

type Part = "day" | "month" | "year";

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(locale: string): Intl.DateTimeFormat {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "UTC" });
    formats.set(locale, format);
  }
  return format;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The date as the locale writes it; "" for "" or a value that is not a calendar date. */
export function formatDateText(iso: string, locale: string): string {
  const m = ISO.exec(iso);
  if (!m) return "";
  return formatOf(locale).format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))));
}

/** The order of day, month and year in the locale's dates. */
export function dateOrder(locale: string): Part[] {
  return formatOf(locale)
    .formatToParts(new Date(Date.UTC(2025, 2, 15)))
    .map((p) => p.type)
    .filter((t): t is Part => t === "day" || t === "month" || t === "year");
}

/**
 * The date a viewer typed, read in the locale's order of day, month and year (any separators;
 * a two-digit year is in this century); null when it is not a whole, existing date.
 */
export function parseDateText(text: string, locale: string): string | null {
  const numbers = text.match(/\d+/g);
  if (!numbers || numbers.length !== 3) return null;
  const value: Record<Part, number> = { day: 0, month: 0, year: 0 };
  dateOrder(locale).forEach((part, i) => {
    const digits = numbers[i]!;
    value[part] = part === "year" && digits.length <= 2 ? 2000 + Number(digits) : Number(digits);
  });
  if (value.year < 1000 || value.year > 9999) return null;
  const date = new Date(Date.UTC(value.year, value.month - 1, value.day));
  if (date.getUTCFullYear() !== value.year || date.getUTCMonth() !== value.month - 1 || date.getUTCDate() !== value.day) return null;
  return date.toISOString().slice(0, 10);
}

/** What the field shows while empty: the locale's own pattern, with its words' first letters ("TT.MM.JJJJ"). */
export function datePlaceholder(locale: string): string {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(locale, { type: "dateTimeField" });
  } catch {
    names = null;
  }
  const letter = (part: Part, fallback: string) => (names?.of(part) ?? fallback).charAt(0).toLocaleUpperCase(locale);
  return formatOf(locale)
    .formatToParts(new Date(Date.UTC(2025, 10, 22)))
    .map((p) =>
      p.type === "day"
        ? letter("day", "D").repeat(2)
        : p.type === "month"
          ? letter("month", "M").repeat(2)
          : p.type === "year"
            ? letter("year", "Y").repeat(4)
            : p.value,
    )
    .join("");
}
