/**
 * The phrases read before the model is searched: growth and period comparisons, parts of time,
 * time grains and "top N". Each takes the canonical text and gives back what it read and the
 * text without the phrase.
 */
import type { TimePart } from "../../../schema/semantic-query";
import type { Grain } from "./understanding";

/**
 * Growth and period-over-period phrases: "growth", "change", "vs last year", "compared to the
 * previous month", "year over year", "YoY". Returns the unit compared against (when named) and
 * whether a growth word (rather than a named period) asked for it.
 */
export function readCompare(canonical: string): { compare?: { unit?: Grain; against: boolean; amount?: number }; rest: string } {
  let rest = canonical;
  // "vs two years ago", "compared with 3 months earlier": a period that many units before.
  const ago =
    /\b(?:vs|compared (?:to|with)|against|than) (?:(?:the|dem|den|der|das|el|la|al|del) )?(?:same (?:period |time )?)?(\d{1,2}|two|three|four|five|ten) (year|quarter|month|week|day)s? (?:before|earlier|ago)\b/.exec(
      rest,
    );
  if (ago) {
    const amount = Number(AMOUNT_WORDS[ago[1]!] ?? ago[1]);
    if (amount >= 1 && amount <= 60) {
      const unit = ago[2] as Grain;
      rest = rest.replace(ago[0], " ").replace(/\b(growth|grew|change|changes|changed)(?: rate)?\b/, " ");
      return { compare: amount === 1 ? { unit, against: true } : { unit, against: true, amount }, rest };
    }
  }
  let unit: Grain | undefined;
  let against = false;
  const named =
    /\b(?:vs|compared (?:to|with)|against|than) (?:(?:the|dem|den|der|das|el|la|al|del) )?(?:same (?:period |time )?)?(?:last|a|one) (year|quarter|month|week|day)(?: before| earlier| ago)?\b|\b(?:vs|compared (?:to|with)|against) (?:(?:the|dem|den|der|das|el|la|al|del) )?(year|quarter|month|week|day) (?:last|before)\b/.exec(
      rest,
    );
  if (named) {
    unit = (named[1] ?? named[2]) as Grain;
    against = true;
    rest = rest.replace(named[0], " ");
  }
  const over = /\b(year|quarter|month|week|day) (?:over|on) (?:the )?(?:last |previous )?\1\b|\b(yoy|qoq|mom|wow)\b/.exec(rest);
  if (over) {
    unit = (over[1] as Grain | undefined) ?? ({ yoy: "year", qoq: "quarter", mom: "month", wow: "week" } as const)[over[2] as "yoy" | "qoq" | "mom" | "wow"];
    rest = rest.replace(over[0], " ");
  }
  const growth = /\b(growth|grew|grow|growing|change|changes|changed|increase|increased|decrease|decreased|development)(?: rate)?\b/.exec(rest);
  if (growth) rest = rest.replace(growth[0], " ");
  if (!named && !over && !growth) return { rest: canonical };
  return { compare: { unit, against }, rest };
}

const AMOUNT_WORDS: Record<string, string> = { two: "2", three: "3", four: "4", five: "5", ten: "10" };

const PART_WORDS: Record<string, TimePart> = {
  weekday: "dayOfWeek",
  hourofday: "hourOfDay",
  dayofmonth: "dayOfMonth",
  weekofyear: "weekOfYear",
  monthofyear: "monthOfYear",
  quarterofyear: "quarterOfYear",
};

/** "by day of week", "nach Wochentag", "por hora del día": a part of time (canonical words from builtin-language.ts). */
export function readPart(canonical: string): { part?: TimePart; rest: string } {
  const m = /\b(?:(?:by|per|each|every|on|in) )?(weekday|hourofday|dayofmonth|weekofyear|monthofyear|quarterofyear)\b/.exec(canonical);
  return m ? { part: PART_WORDS[m[1]!], rest: canonical.replace(m[0], " ") } : { rest: canonical };
}

export function readGrain(canonical: string): { grain?: Grain; rest: string } {
  const read = readNamedGrain(canonical);
  // "monthly revenue trend": a named grain says how "over time" is meant.
  return read.grain ? { grain: read.grain, rest: read.rest.replace(/\bover time\b/, " ") } : read;
}

function readNamedGrain(canonical: string): { grain?: Grain; rest: string } {
  let m = /\b(?:by|per|each|every) (day|week|month|quarter|year)\b/.exec(canonical);
  if (m) return { grain: m[1] as Grain, rest: canonical.replace(m[0], " ") };
  m = /\b(daily|weekly|monthly|quarterly|yearly|annually|annual)\b/.exec(canonical);
  if (m) {
    const g = { daily: "day", weekly: "week", monthly: "month", quarterly: "quarter", yearly: "year", annually: "year", annual: "year" }[m[1]!] as Grain;
    return { grain: g, rest: canonical.replace(m[0], " ") };
  }
  m = /\bover time\b/.exec(canonical);
  if (m) return { grain: "month", rest: canonical.replace(m[0], " ") };
  return { rest: canonical };
}

export function readRank(canonical: string): { limit?: number; direction?: "asc" | "desc"; rest: string } {
  const m = /\b(top|bottom) (\d{1,3})\b|\b(\d{1,3}) (top|bottom)\b|\b(top|bottom)\b/.exec(canonical);
  if (!m) return { rest: canonical };
  const word = (m[1] ?? m[4] ?? m[5]) as "top" | "bottom";
  const n = Number(m[2] ?? m[3] ?? (m[5] ? 1 : 10));
  return { limit: Math.max(1, Math.min(n, 100)), direction: word === "top" ? "desc" : "asc", rest: canonical.replace(m[0], " ") };
}
