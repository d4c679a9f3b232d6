/**
 * The time of a reading: the time dimension, grain, part of time and period, and the period
 * comparison (growth, "vs last year") set on an understanding from the phrases read.
 */
import type { TimePart } from "../../../schema/semantic-query";
import type { MetaMember } from "../../semantic/query-engine";
import { isoDay, shift, startOf, type Period } from "./time";
import type { Grain, Understanding } from "./understanding";

/** The time phrases of a question, as read before the model was searched. */
export interface TimePhrases {
  compare?: { unit?: Grain; against: boolean; amount?: number };
  part?: TimePart;
  grain?: Grain;
  period?: Period;
  /** A time dimension the question named ("signed up"), or the time dimension it groups by. */
  named: boolean;
}

/** Sets `time` (and `compare`, `rankByChange`) on an understanding; `reference` is the day relative dates count from. */
export function applyTime(understanding: Understanding, phrases: TimePhrases, timeDimension: MetaMember | undefined, reference: Date): void {
  const { compare, part, grain } = phrases;
  const grouped = understanding.dimensions.length > 0;
  const wantsTime = grain !== undefined || compare !== undefined || phrases.named;
  let period = phrases.period;
  let granularity: Grain | undefined = wantsTime ? (grain ?? "month") : undefined;
  if (compare && timeDimension) {
    // "growth by month": each month against the one before; "vs last year": against one year
    // earlier, per the grain asked for, else one row for the period. Growth by a dimension
    // ("which country grew most") compares the latest period with the one before it, per value.
    const unit = compare.unit ?? grain ?? "month";
    const onePeriod = compare.against || grouped;
    granularity = grain ?? (onePeriod ? unit : "month");
    understanding.compare = compare.amount ? { unit, amount: compare.amount } : { unit };
    // The query itself is not limited: the rank is by the change, which the query does not
    // order by. "top 5 countries by growth" keeps the five with the biggest change; without a
    // dimension, or without "top"/"bottom", the answer names the biggest change.
    if (understanding.limit && grouped) understanding.rankByChange = { limit: understanding.limit, direction: understanding.direction ?? "desc" };
    delete understanding.limit;
    delete understanding.direction;
    if (onePeriod) {
      // A period compared with the one before it is compared to date: the same days of each
      // (this year so far against the same days a year earlier), when the data ends inside it;
      // a period that has no data yet is the one before it.
      const today = startOf("day", reference);
      const current = startOf(unit, today);
      period ??= { from: current, to: shift(unit, current, 1) };
      if (period.from >= today) period = { from: shift(unit, period.from, -1), to: period.from };
      if (period.to > today && period.from < today) {
        period = { from: period.from, to: today };
        understanding.compare.toDate = true;
      }
    }
  }
  if (part) {
    // A part of time groups like a dimension: no series, no growth between its values.
    granularity = grain;
    delete understanding.compare;
  }
  if (timeDimension && (granularity || period || part)) {
    understanding.time = {
      dimension: timeDimension.name,
      ...(granularity ? { granularity } : {}),
      ...(part ? { part } : {}),
      ...(period ? { range: { from: isoDay(period.from), to: isoDay(shift("day", period.to, -1)) } } : {}),
    };
  } else if (understanding.compare) delete understanding.compare;
}
