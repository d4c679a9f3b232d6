/** Numbers, periods and lists written in the answer's language. */
import type { Granularity } from "../../../schema/semantic-query";
import { quarterName } from "../../semantic/column-labels";
import { AND, type Language } from "../builtin-language";
import type { ViewIndex } from "./view-index";

// Intl formatters are costly to make and stateless to use: one per language and kind.
export const intlCache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
export function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = intlCache.get(key) as T | undefined;
  if (!f) intlCache.set(key, (f = make()));
  return f;
}

export function formatter(lang: Language, format: string | undefined): Intl.NumberFormat {
  if (format === "percent") return cached(`n:${lang}:percent`, () => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 }));
  if (format === "currency")
    return cached(`n:${lang}:currency`, () => new Intl.NumberFormat(lang, { style: "currency", currency: "USD", maximumFractionDigits: 2 }));
  return cached(`n:${lang}`, () => new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }));
}

export const dateFormat = (lang: Language) => cached(`d:${lang}`, () => new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" }));
export const monthFormat = (lang: Language) => cached(`m:${lang}`, () => new Intl.DateTimeFormat(lang, { month: "long", year: "numeric", timeZone: "UTC" }));

export function formatValue(lang: Language, value: unknown, format: string | undefined): string {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? formatter(lang, format).format(n) : String(value ?? "–");
}

export function formatPeriod(lang: Language, value: unknown, grain: Granularity | undefined): string {
  if (typeof value !== "string") return String(value);
  const d = new Date(value.slice(0, 10) + "T00:00:00Z");
  if (Number.isNaN(d.getTime())) return value;
  if (grain === "year") return String(d.getUTCFullYear());
  if (grain === "quarter") return quarterName(lang, Math.floor(d.getUTCMonth() / 3) + 1, d.getUTCFullYear());
  if (grain === "month") return monthFormat(lang).format(d);
  return dateFormat(lang).format(d);
}

/** A dimension value's text in the answer's language (the deployment's dictionary, a country's name); undefined: none. */
export type ValueLabel = (member: string, value: unknown) => string | undefined;

/** A dimension value as the answer writes it: its label, else the value itself ("–" for none). */
export function shownValue(valueLabel: ValueLabel | undefined, member: string, value: unknown): string {
  if (value === null || value === undefined) return "–";
  return valueLabel?.(member, value) ?? String(value);
}

export function listJoin(lang: Language, items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${AND[lang]} ${items[items.length - 1]}`;
}

export function titleOf(indexes: ViewIndex[], name: string): string {
  for (const i of indexes) {
    const m = i.members.find((x) => x.name === name);
    if (m) return m.shortTitle;
  }
  return name;
}

export const signedNumber = (lang: Language, format: string | undefined) =>
  cached(`s:${lang}:${format === "currency" ? "currency" : ""}`, () =>
    format === "currency"
      ? new Intl.NumberFormat(lang, { style: "currency", currency: "USD", maximumFractionDigits: 2, signDisplay: "exceptZero" })
      : new Intl.NumberFormat(lang, { maximumFractionDigits: 2, signDisplay: "exceptZero" }),
  );
export const signedPercent = (lang: Language) =>
  cached(`p:${lang}`, () => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1, signDisplay: "exceptZero" }));
