/**
 * The date ranges of a comparison: the range before a date range (as many whole months, or as
 * many days, before it) or the same range a year before, and the dates a relative range means
 * on a given day (docs/data-model.md, "Date ranges and time zones").
 */
import type { DateRange } from "../../../schema/semantic-query";

export type CompareMode = "none" | "previousPeriod" | "yearBefore";

type Unit = "day" | "week" | "month" | "quarter" | "year";

/**
 * The two ranges of a comparison of `range`. "This month/quarter/year" against the previous
 * one stays relative ("last month"), so a saved report keeps moving with the calendar; other
 * relative ranges are compared as the dates they mean on `today`.
 */
export function compareRangesOf(range: DateRange, mode: Exclude<CompareMode, "none">, today: string): { baseline: DateRange; current: DateRange } | null {
  if (typeof range === "string") {
    const phrase = range.trim().toLowerCase();
    const m = /^this (day|week|month|quarter|year)$/.exec(phrase);
    if (mode === "previousPeriod" && (m || phrase === "today")) return { baseline: m ? `last ${m[1]}` : "yesterday", current: range };
  }
  const dates = typeof range === "string" ? datesOfRelative(range, today) : [range[0].slice(0, 10), range[1].slice(0, 10)];
  if (!dates) return null;
  const [from, to] = dates as [string, string];
  if (mode === "yearBefore") return { baseline: [addMonths(from, -12), addMonths(to, -12)], current: [from, to] };
  const months = wholeMonths(from, to);
  const before = addDays(from, -1);
  const baseline: [string, string] = months ? [addMonths(from, -months), before] : [addDays(from, -(daysBetween(from, to) + 1)), before];
  return { baseline, current: [from, to] };
}

/** The dates a relative range means on `today` (the N complete units before the current one for `last N …`). */
export function datesOfRelative(phrase: string, today: string): [string, string] | null {
  const p = phrase.trim().toLowerCase().replace(/\s+/g, " ");
  if (p === "today") return [today, today];
  if (p === "yesterday") return [addDays(today, -1), addDays(today, -1)];
  const m = /^(this|last)(?: (\d{1,4}))? (day|week|month|quarter|year)s?$/.exec(p);
  if (!m || (m[1] === "this" && m[2])) return null;
  const unit = m[3] as Unit;
  const n = m[2] ? Number(m[2]) : 1;
  const start = startOf(today, unit);
  if (m[1] === "this") return [start, addDays(shift(start, unit, 1), -1)];
  return [shift(start, unit, -n), addDays(start, -1)];
}

const toDate = (d: string) => new Date(`${d.slice(0, 10)}T00:00:00Z`);
const iso = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: string, n: number) => iso(new Date(toDate(d).getTime() + n * 86_400_000));
const daysBetween = (a: string, b: string) => Math.round((toDate(b).getTime() - toDate(a).getTime()) / 86_400_000);

/** `d` plus `n` months, the day kept or the month's last day (29 February a year before is 28 February). */
function addMonths(d: string, n: number): string {
  const date = toDate(d);
  const first = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return iso(new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(date.getUTCDate(), last))));
}

/** How many whole calendar months `[from, to]` spans (from the 1st to a month's last day), else 0. */
function wholeMonths(from: string, to: string): number {
  if (from.slice(8, 10) !== "01" || addDays(to, 1).slice(8, 10) !== "01") return 0;
  const a = toDate(from);
  const b = toDate(addDays(to, 1));
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
}

function startOf(d: string, unit: Unit): string {
  const date = toDate(d);
  if (unit === "day") return d.slice(0, 10);
  if (unit === "week") return addDays(d, -((date.getUTCDay() + 6) % 7));
  const month = unit === "month" ? date.getUTCMonth() : unit === "quarter" ? date.getUTCMonth() - (date.getUTCMonth() % 3) : 0;
  return iso(new Date(Date.UTC(date.getUTCFullYear(), month, 1)));
}

function shift(d: string, unit: Unit, n: number): string {
  if (unit === "day") return addDays(d, n);
  if (unit === "week") return addDays(d, 7 * n);
  return addMonths(d, n * (unit === "month" ? 1 : unit === "quarter" ? 3 : 12));
}
