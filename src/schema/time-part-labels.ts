import type { TimePart } from "./semantic-query";

/** Each part of time named in English: in annotation titles ("Created At (day of week)") and the chat's English answers. */
export const TIME_PART_TITLES: Record<TimePart, string> = {
  dayOfWeek: "day of week",
  hourOfDay: "hour of day",
  dayOfMonth: "day of month",
  weekOfYear: "week of year",
  monthOfYear: "month of year",
  quarterOfYear: "quarter of year",
};

/**
 * The label of a part of time in a language: a weekday (1 Monday … 7 Sunday) or a month by its
 * name, an hour as a time of day, a quarter as Q1–Q4, a week and a day by their number. Shared
 * by the chat's written answers and the embed's tables and charts.
 */
export function timePartLabel(locale: string, part: TimePart, value: number): string {
  if (!Number.isInteger(value)) return String(value);
  // A label is the same every time and its formatter costs ~0.1 ms to make: each is made once.
  const key = `${locale}|${part}|${value}`;
  let label = labels.get(key);
  if (label === undefined) {
    if (labels.size >= MAX_LABELS) labels.clear();
    labels.set(key, (label = makeLabel(locale, part, value)));
  }
  return label;
}

/** Labels made so far, by locale, part and value (a few hundred per locale in use). */
const labels = new Map<string, string>();
const MAX_LABELS = 10_000;

function makeLabel(locale: string, part: TimePart, value: number): string {
  switch (part) {
    case "dayOfWeek":
      // 1 January 2024 was a Monday: day n of that week is 2024-01-0n.
      return value >= 1 && value <= 7 ? new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(Date.UTC(2024, 0, value)) : String(value);
    case "monthOfYear":
      return value >= 1 && value <= 12
        ? new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" }).format(Date.UTC(2024, value - 1, 1))
        : String(value);
    case "hourOfDay":
      return value >= 0 && value <= 23
        ? new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(Date.UTC(2024, 0, 1, value))
        : String(value);
    case "quarterOfYear":
      return `Q${value}`;
    case "weekOfYear":
    case "dayOfMonth":
      return new Intl.NumberFormat(locale).format(value);
  }
}
