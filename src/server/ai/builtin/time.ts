/**
 * Time phrases: relative periods, years, quarters, months and dates, read against the
 * reference day (the end of the data), and the calendar arithmetic they need.
 */
import * as chrono from "chrono-node";
import { canonicalize, normalize, type Language } from "../builtin-language";
import type { Grain } from "./understanding";

export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
export const utc = (y: number, m: number, d = 1) => new Date(Date.UTC(y, m, d));

export function startOf(unit: Grain, d: Date): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (unit === "year") return utc(y, 0);
  if (unit === "quarter") return utc(y, m - (m % 3));
  if (unit === "month") return utc(y, m);
  if (unit === "week") return utc(y, m, d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return utc(y, m, d.getUTCDate());
}

export function shift(unit: Grain, d: Date, n: number): Date {
  if (unit === "year") return utc(d.getUTCFullYear() + n, d.getUTCMonth(), d.getUTCDate());
  if (unit === "quarter") return utc(d.getUTCFullYear(), d.getUTCMonth() + 3 * n, d.getUTCDate());
  if (unit === "month") return utc(d.getUTCFullYear(), d.getUTCMonth() + n, d.getUTCDate());
  if (unit === "week") return utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 7 * n);
  return utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + n);
}

/** [from, to) of a period; `to` is exclusive here and made inclusive for the query. */
export interface Period {
  from: Date;
  to: Date;
}

/**
 * Time phrases: relative periods ("last quarter", "this year", "last 3 months") against the
 * reference day, years, quarters ("Q1 2025"), and dates and months through chrono-node in the
 * question's language. Returns the period and the canonical text without the phrase.
 */
export function readTime(canonical: string, original: string, lang: Language, reference: Date, nth = 0): { period?: Period; rest: string; dated?: true } {
  const today = startOf("day", reference);
  // "last month" before "month last" ("the busiest day last month" is last month's busiest day).
  let m = /\b(last|this) (\d+ )?(day|week|month|quarter|year)s?\b/.exec(canonical);
  const after = m ? null : /\b(day|week|month|quarter|year)s? (last|this)\b/.exec(canonical);
  if (m || after) {
    const which = (m ? m[1] : after![2]) as "last" | "this";
    const unit = (m ? m[3] : after![1]) as Grain;
    const n = m?.[2] ? Number(m[2]) : 1;
    const current = startOf(unit, today);
    const period = which === "this" ? { from: current, to: shift(unit, current, 1) } : { from: shift(unit, current, -n), to: current };
    return { period, rest: canonical.replace((m ?? after)![0], " ") };
  }
  m = /\blast (\d+) (day|week|month|quarter|year)s?\b/.exec(canonical);
  if (m) {
    const unit = m[2] as Grain;
    const current = startOf(unit, today);
    return { period: { from: shift(unit, current, -Number(m[1])), to: current }, rest: canonical.replace(m[0], " ") };
  }
  m = /\b(ytd|year to date|so far this year)\b/.exec(canonical);
  if (m) return { period: { from: startOf("year", today), to: shift("day", today, 1) }, rest: canonical.replace(m[0], " ") };
  m = /\b(?:q|t)([1-4]) ((?:19|20)\d{2})\b|\b((?:19|20)\d{2}) (?:q|t)([1-4])\b/.exec(canonical);
  if (m) {
    const q = Number(m[1] ?? m[4]);
    const y = Number(m[2] ?? m[3]);
    return { period: { from: utc(y, 3 * (q - 1)), to: utc(y, 3 * q) }, rest: canonical.replace(m[0], " ") };
  }
  // Months and dates, in the question's own language (the date parser only runs when the
  // question names a month or writes a date: it is the slowest part of reading a question).
  // A quarter without a year: the latest one that has begun ("sales in Q2").
  m = /\b(?:q|t)([1-4])\b/.exec(canonical);
  if (m) {
    const q = Number(m[1]);
    const y = utc(reference.getUTCFullYear(), 3 * (q - 1)) < reference ? reference.getUTCFullYear() : reference.getUTCFullYear() - 1;
    return { period: { from: utc(y, 3 * (q - 1)), to: utc(y, 3 * q) }, rest: canonical.replace(m[0], " ") };
  }
  // German months with a year ("Februar 2025"), which the German date parser leaves out.
  m = lang === "de" ? new RegExp(`\\b(${DE_MONTHS.join("|")})(?: ((?:19|20)\\d{2}))?\\b`).exec(canonical) : null;
  if (m) {
    const from = utc(m[2] ? Number(m[2]) : reference.getUTCFullYear(), DE_MONTHS.indexOf(m[1]!));
    return { period: { from, to: shift("month", from, 1) }, rest: canonical.replace(m[0], " ") };
  }
  const parser = lang === "de" ? chrono.de : lang === "es" ? chrono.es : chrono.en;
  const parsed = MONTH_OR_DATE.test(normalize(original)) ? parser.parse(original, reference).filter((r) => r.start.isCertain("month"))[nth] : undefined;
  if (parsed) {
    const s = parsed.start;
    const y = s.get("year") ?? reference.getUTCFullYear();
    const from = s.isCertain("day") ? utc(y, s.get("month")! - 1, s.get("day")!) : utc(y, s.get("month")! - 1);
    let to: Date;
    if (parsed.end?.isCertain("month")) {
      const e = parsed.end;
      const ey = e.get("year") ?? y;
      to = e.isCertain("day") ? utc(ey, e.get("month")! - 1, e.get("day")! + 1) : utc(ey, e.get("month")!);
    } else to = s.isCertain("day") ? shift("day", from, 1) : shift("month", from, 1);
    // Drop the phrase's words (month names, numbers) from the text that is matched against the model.
    const drop = new Set(canonicalize(normalize(parsed.text), lang).split(" "));
    const rest = canonical
      .split(" ")
      .filter((w) => !drop.has(w))
      .join(" ");
    return { period: { from, to }, rest, dated: true };
  }
  m = /\b(?:year )?((?:19|20)\d{2})\b/.exec(canonical);
  if (m) {
    const y = Number(m[1]);
    return { period: { from: utc(y, 0), to: utc(y + 1, 0) }, rest: canonical.replace(m[0], " ") };
  }
  return { rest: canonical };
}

const DE_MONTHS = ["januar", "februar", "marz", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "dezember"];

/** Month names and abbreviations (English, German, Spanish; normalized) or a written date. */
const MONTH_OR_DATE =
  /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|januar|februar|marz|mai|juni|juli|oktober|dezember|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|ene|abr|ago|dic)\b|\d{1,4}[./-]\d{1,2}/;
