/**
 * The analysis a reading asks for, set on its understanding: two periods side by side, a share
 * or running total, the first rows within each group, or the explanation of a change.
 */
import { periodBefore } from "./analysis";
import { isoDay, shift, startOf, type Period } from "./time";
import type { Understanding } from "./understanding";

/** What the analysis phrases read. */
export interface AnalysisPhrases {
  why: boolean;
  calculation?: "percentOfTotal" | "runningTotal" | "rank";
  each: boolean;
  periods?: { baseline: Period; current: Period };
}

const inclusive = (p: Period) => ({ from: isoDay(p.from), to: isoDay(shift("day", p.to, -1)) });

/** Sets `periods`, `calculation`, `perGroup` and `explain`; `period` is the one period read, `reference` the end of the data. */
export function applyAnalysis(u: Understanding, a: AnalysisPhrases, o: { timeDimension?: string; period?: Period; reference: Date }): void {
  if (a.calculation) u.calculation = a.calculation;
  if (a.each && u.limit && u.dimensions.length >= 2) {
    // "the best-selling product in each category": what is ranked first, the groups after "each".
    u.perGroup = { within: u.dimensions.slice(1), limit: u.limit };
    delete u.limit;
  }
  // "why is revenue in Germany lower than in France": two values of one dimension, one against the other.
  const sides = a.why && !a.periods ? u.filters.find((f) => !f.exclude && f.values.length === 2) : undefined;
  if (sides) {
    u.segments = { member: sides.member, current: sides.values[0]!, baseline: sides.values[1]! };
    u.filters = u.filters.filter((f) => f !== sides);
    u.dimensions = u.dimensions.filter((d) => d !== sides.member);
    // "… in 2024": both sides in that period.
    if (o.period && o.timeDimension) u.time = { dimension: o.timeDimension, range: inclusive(o.period) };
    delete u.compare;
    delete u.rankByChange;
    u.explain = true;
    return;
  }
  if (!o.timeDimension) return;
  let periods = a.periods;
  if (a.why && !periods) {
    // "why did revenue fall in February 2025?": that period against the one before it
    // (without a period: the last whole month of the data against the month before).
    const current = o.period ?? { from: shift("month", startOf("month", o.reference), -1), to: startOf("month", o.reference) };
    periods = { baseline: periodBefore(current), current };
  }
  if (!periods) return;
  u.periods = { dimension: o.timeDimension, baseline: inclusive(periods.baseline), current: inclusive(periods.current) };
  delete u.compare;
  delete u.rankByChange;
  if (a.why) u.explain = true;
}
