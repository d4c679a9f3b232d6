/**
 * The labels of worked-out columns: the words in parentheses after the measure's title in
 * "Revenue (Q1 2024)", "Revenue (% of total)", "Order Date (day of week)". The query engine
 * writes them in English (compiler/annotation.ts); content translation (translate-result.ts)
 * says them in the language of each UI locale (decisions.md "Locales"; the words are in
 * column-label-words.ts), the chat's answers in German and Spanish. A date range is named the
 * way a reader names it: a year ("2024"), a quarter ("Q1 2024"), a month ("Jan 2024"), else its
 * first and last day ("Jan 1 – Mar 15, 2024"), each in the reader's language.
 */
import { LABEL_LANGUAGES, QUARTER, SHIFTS, WORDS, type LabelLanguage, type Translated, type Unit } from "./column-label-words";

export { TIME_PART_NAMES, type LabelLanguage } from "./column-label-words";

/** The labels' language of a locale ("de-AT" → "de", "no" and "nn" → "nb"); English for every other. */
export function labelLanguageOf(locale: string): LabelLanguage {
  const language = locale.slice(0, 2).toLowerCase();
  if (language === "no" || language === "nn") return "nb";
  return isLabelLanguage(language) ? language : "en";
}

const isLabelLanguage = (language: string): language is LabelLanguage => (LABEL_LANGUAGES as readonly string[]).includes(language);

/** A range of wall time, end exclusive ("2024-01-01T00:00:00.000" to "2024-04-01T00:00:00.000"). */
export interface WallRange {
  from: string;
  to: string;
}

/** Quarter `q` of `year` as `locale`'s language names it ("Q2 2025", "T2 2025"). */
export function quarterName(locale: string, q: number, year: number): string {
  return QUARTER[labelLanguageOf(locale)](q, year);
}

const DAY_MS = 86_400_000;

/** The range's name in `locale`: a whole year, quarter or month by its name, else its first and last day. */
export function periodLabel(locale: string, range: WallRange): string {
  const start = new Date(`${range.from.slice(0, 23)}Z`);
  const end = new Date(`${range.to.slice(0, 23)}Z`);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end <= start) return `${range.from} – ${range.to}`;
  const midnight = (d: Date) => d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;
  const months = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth();
  const whole = midnight(start) && midnight(end) && start.getUTCDate() === 1 && end.getUTCDate() === 1;
  const year = start.getUTCFullYear();
  if (whole && months === 12 && start.getUTCMonth() === 0) return String(year);
  if (whole && months === 3 && start.getUTCMonth() % 3 === 0) return quarterName(locale, start.getUTCMonth() / 3 + 1, year);
  if (whole && months === 1) return formatter(locale, { month: "short", year: "numeric" }).format(start);
  // The last day the range holds: a range ending at midnight holds the day before.
  const last = new Date(end.getTime() - (midnight(end) ? DAY_MS : 1));
  return formatter(locale, { day: "numeric", month: "short", year: "numeric" }).formatRange(start, last);
}

/** Formatters by locale and options: made once each (one costs ~0.1 ms). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    if (formatters.size >= 1000) formatters.clear();
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    formatters.set(key, f);
  }
  return f;
}

function shift(lang: Translated, n: string, unit: string, way: "earlier" | "later"): string {
  const words = SHIFTS[lang];
  const unitWord = words.units[unit as Unit][n === "1" ? 0 : 1];
  return words.joined ? `${n}${unitWord}${words[way]}` : `${n} ${unitWord} ${words[way]}`;
}

/** A label the engine wrote in English (a share, a running total, a rank, a change, an earlier period) in `lang`. */
export function localLabel(lang: LabelLanguage, label: string): string {
  if (lang === "en") return label;
  let out = label
    .replace(/\b(\d+) (day|week|month|quarter|year)s? earlier\b/g, (_, n: string, unit: string) => shift(lang, n, unit, "earlier"))
    .replace(/\b(\d+) (day|week|month|quarter|year)s? later\b/g, (_, n: string, unit: string) => shift(lang, n, unit, "later"));
  for (const [re, to] of WORDS[lang]) out = typeof to === "string" ? out.replace(re, to) : out.replace(re, to as (...g: string[]) => string);
  return out;
}

/** What a column of two date ranges side by side shows after its measure: its period, or the change. */
export function compareLabel(
  locale: string,
  output: "baseline" | "current" | "change" | "relativeChange",
  ranges: { baseline: WallRange; current: WallRange },
) {
  if (output === "baseline" || output === "current") return periodLabel(locale, ranges[output]);
  return localLabel(labelLanguageOf(locale), output === "change" ? "change" : "% change");
}

/** "Revenue (label)" split into the title and the label; null when the title has no label in parentheses. */
export function splitLabel(title: string): { title: string; label: string } | null {
  const open = title.lastIndexOf(" (");
  if (open <= 0 || !title.endsWith(")")) return null;
  return { title: title.slice(0, open), label: title.slice(open + 2, -1) };
}
