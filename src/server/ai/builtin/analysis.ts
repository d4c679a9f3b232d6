/**
 * Phrases of analysis, read from the canonical text: two date ranges side by side ("Q1 2025
 * with Q1 2024", "from Q1 to Q2 2025"), each row's share of the total, a running total, the
 * first rows within each group ("in each category") and "why did … fall".
 */
import type { Language } from "../builtin-language";
import { readTime, shift, startOf, type Period } from "./time";

/**
 * "lower than", "höher als", "más bajos que", also apart ("higher in Electronics than in
 * Books"): the words that set one side against the other, read only after "why". ("más" is
 * already "top" here, "menos" stays.)
 */
const AGAINST =
  /\b(?:lower|higher|less|fewer|more|smaller|bigger|larger|greater|better|worse|weaker|stronger|different|than|niedriger|hoher|geringer|weniger|mehr|kleiner|grosser|besser|schlechter|anders|als|(?:top|menos) (?:bajos?|bajas?|altos?|altas?|grandes?|pequenos?|pequenas?)|menores|menor|mayores|mayor|inferiores|inferior|superiores|superior|diferentes?|distintos?|distintas?|menos)\b/g;

/**
 * "why did revenue fall …": an explanation of a change; the change words go with it. "why is
 * revenue in Germany lower than in France": the words that set one side against the other too.
 */
export function readWhy(canonical: string): { why: boolean; rest: string } {
  if (!/\bwhy\b/.test(canonical)) return { why: false, rest: canonical };
  return { why: true, rest: canonical.replace(AGAINST, " vs ").replace(/\b(why|change|grew|grow|growth)\b/g, " ") };
}

/** "share of revenue by category", "cumulative revenue by month". */
export function readCalculation(canonical: string): { calculation?: "percentOfTotal" | "runningTotal" | "rank"; rest: string } {
  const ranked = /\b(rank|ranks|ranking|rankings|ranked|rangliste|rangfolge|clasificacion|clasifica)\b/;
  if (ranked.test(canonical)) return { calculation: "rank", rest: canonical.replace(ranked, " ") };
  if (/\bshare\b/.test(canonical)) return { calculation: "percentOfTotal", rest: canonical.replace(/\bshare\b/g, " ") };
  if (/\bcumulative\b/.test(canonical)) return { calculation: "runningTotal", rest: canonical.replace(/\bcumulative\b/g, " ") };
  return { rest: canonical };
}

/** "the best-selling product in each category": a ranking within each value of what follows "each". */
export function readEach(canonical: string): { each: boolean; rest: string } {
  return /\bby each\b/.test(canonical) ? { each: true, rest: canonical.replace(/\bby each\b/g, "by") } : { each: false, rest: canonical };
}

/** Words that put two periods side by side rather than make one span of them. */
const SIDE_BY_SIDE = /\b(compare|vs|with|against|to|from|grew|growth|change|why|bis|mit|von|con|al|del|frente)\b/;

/**
 * One period, or two: two side by side (the earlier is the baseline), or one span of both when
 * nothing compares them ("revenue between 2023 and 2024"). `compared`: words read before said
 * so ("grew most between Q1 and Q2 2025": the growth words are no longer in `canonical`).
 */
export function readPeriods(
  canonical: string,
  original: string,
  lang: Language,
  reference: Date,
  compared = false,
): { period?: Period; periods?: { baseline: Period; current: Period }; rest: string } {
  const first = readTime(canonical, original, lang, reference);
  if (!first.period) return first;
  const second = readTime(first.rest, original, lang, reference, first.dated ? 1 : 0);
  const same = second.period && second.period.from.getTime() === first.period.from.getTime() && second.period.to.getTime() === first.period.to.getTime();
  if (!second.period || same) return first;
  const [a, b] = [first.period, second.period].sort((x, y) => x.from.getTime() - y.from.getTime());
  if (compared || SIDE_BY_SIDE.test(canonical)) return { periods: { baseline: a!, current: b! }, rest: second.rest };
  return { period: { from: a!.from, to: b!.to > a!.to ? b!.to : a!.to }, rest: second.rest };
}

/** The period just before one: the month before a month, the quarter before a quarter, else as many days earlier. */
export function periodBefore(p: Period): Period {
  for (const unit of ["year", "quarter", "month"] as const) {
    if (startOf(unit, p.from).getTime() === p.from.getTime() && shift(unit, p.from, 1).getTime() === p.to.getTime()) {
      return { from: shift(unit, p.from, -1), to: p.from };
    }
  }
  const days = Math.round((p.to.getTime() - p.from.getTime()) / 86_400_000);
  return { from: shift("day", p.from, -days), to: p.from };
}
