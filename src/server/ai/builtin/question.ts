/**
 * Reading a question: its language, its phrases, then the members and values it names in the
 * view that places most of it. A word that names nothing in the model is not replaced by the
 * nearest thing: the reading is refused with that word (`refusal`), and so is a request to
 * change data.
 */
import { canonicalize, detectLanguage, normalize, splitCompounds } from "../builtin-language";
import { measureBefore, namesNumber, readConditions, resolveCondition } from "./conditions";
import { readCompare, readGrain, readPart, readRank } from "./phrases";
import { applyTime } from "./question-time";
import { isWriteRequest } from "./requests";
import { readCalculation, readEach, readPeriods, readWhy } from "./analysis";
import { applyAnalysis } from "./question-analysis";
import { understand } from "./understand";
import { applyAlternatives, readAlternatives } from "./alternatives";
import { applyPer, applyShare, readAverage } from "./ratio";
import type { Condition, Reading } from "./understanding";
import { isTerm, placedCount, readAgainst, type Found } from "./placement";
import { modelWords, type ViewIndex } from "./view-index";
import { spellCodes } from "./aliases";

/** "new customers", "neue Kunden", "clientes nuevos": things counted from when they began. */
const NEW = /\b(new|neue|neuen|neuer|neues|nuevos|nuevas|nuevo|nueva)\b/;

/** Whether the view counts its own rows for a measure the question names (and has a time they began at). */
function countsOwnRows(index: ViewIndex, read: Found): boolean {
  const own = read.measures.some((m) => index.members[m.ref]!.measureType === "count");
  return own && index.source.dimensions.some((d) => d.type === "time");
}

/** Readings kept per list of indexes (a viewer's, rebuilt every minute): at most this many each. */
const READINGS_KEPT = 200;
const readings = new WeakMap<ViewIndex[], Map<string, Reading>>();

/**
 * Reads a question. `indexes` are the views the viewer may query; the one that places the
 * most of the question wins (the first view on a tie). A question asked again of the same
 * indexes, locale and reference day (a suggestion, a dashboard's AI widget) gets a copy of its
 * first reading: the reading's dozens of expressions run once.
 */
export function readQuestion(question: string, indexes: ViewIndex[], opts: { locale: string; reference: Date }): Reading {
  const key = `${opts.locale}\u0000${opts.reference.getTime()}\u0000${question}`;
  let kept = readings.get(indexes);
  if (!kept) readings.set(indexes, (kept = new Map()));
  let reading = kept.get(key);
  if (!reading) {
    reading = readAnew(question, indexes, opts);
    if (kept.size >= READINGS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, reading);
  }
  // Its reader adds to the understanding (titles, ignored words): each gets a copy of its own.
  return structuredClone(reading);
}

function readAnew(question: string, indexes: ViewIndex[], opts: { locale: string; reference: Date }): Reading {
  const unmatched = question.trim().slice(0, 200);
  // Thousands separators ("$1,000", "1.000 €") before the punctuation is dropped.
  // Country codes in capitals ("for DE and FR") by their names, before small words are dropped.
  let normalized = normalize(spellCodes(question, indexes).replace(/(\d)[,.](\d{3})(?!\d)/g, "$1$2"));
  let language = detectLanguage(normalized, opts.locale);
  if (isWriteRequest(normalized)) return { ok: false, language, unmatched, refusal: { kind: "write" } };
  // German compounds, split when the split text reads as German ("Umsatzentwicklung 2024" has no other German word).
  const split = splitCompounds(normalized, modelWords(indexes));
  if (split !== normalized && (language === "de" || detectLanguage(split, opts.locale) === "de")) {
    normalized = split;
    language = "de";
  }
  const canonical = canonicalize(normalized, language);
  const why = readWhy(canonical);
  const calculation = readCalculation(why.rest);
  const each = readEach(calculation.rest);
  const compare = readCompare(each.rest);
  const part = readPart(compare.rest);
  const grain = readGrain(part.rest);
  const time = readPeriods(grain.rest, question, language, opts.reference, compare.compare !== undefined || why.why);
  const rank = readRank(time.rest);
  const conditions = readConditions(rank.rest);
  let text = conditions.rest;
  // "the busiest month": a ranked grain is the grouping ranked.
  let grainWord = grain.grain;
  const bare = rank.limit !== undefined && !grainWord ? /\b(day|week|month|quarter|year)\b/.exec(text) : null;
  if (bare) {
    grainWord = bare[1] as typeof grainWord;
    text = text.replace(bare[0], " ");
  }
  text = text.replace(/\s+/g, " ").trim();

  // "new customers": counted by when they began, so a view whose rows they are (and that has a time) is preferred.
  const asksNew = NEW.test(canonical);
  let best: { index: ViewIndex; read: Found; score: number; per?: string; implicit?: boolean } | null = null;
  for (const index of indexes) {
    // "average revenue per customer": a ratio over a count this view has.
    const average = readAverage(text, index);
    const read = readAgainst(index, average.rest, rank.limit !== undefined);
    const score = placedCount(read) * 10 - read.left.length + (asksNew && countsOwnRows(index, read) ? 5 : 0) + (average.per && !average.implicit ? 10 : 0);
    if (!best || score > best.score) best = { index, read, score, per: average.per, implicit: average.implicit };
  }
  if (!best) return { ok: false, language, unmatched };
  const { index, read, per, implicit } = best;
  const compared = new Set(conditions.written.flatMap((w) => w.before).filter((w) => namesNumber(index, w)));
  const unknown = read.left.filter((w) => isTerm(w) && !compared.has(w));
  if (unknown.length > 0 || placedCount(read) + conditions.written.length + (bare || part.part ? 1 : 0) === 0) {
    const term = unknown[0] ?? read.left[0];
    if (!term) return { ok: false, language, unmatched };
    const grouping = read.groupLeft.includes(term) ? { grouping: read.entity ? { entity: read.entity } : {} } : {};
    return { ok: false, language, unmatched, refusal: { kind: "unknown", term, view: index.source.name, ...grouping } };
  }

  const timeDims = index.source.dimensions.filter((d) => d.type === "time");
  const namedTime = timeDims.find((d) => read.groups.some((g) => index.members[g.ref] === d));
  const grouped = read.groups.some((g) => !timeDims.includes(index.members[g.ref]!)) || grainWord !== undefined || part.part !== undefined;
  const money = /[$€£]\s*\d|\d\s*(?:[$€£]|usd|eur|dollars?|d[oó]lares|euros?)\b/i.test(question);
  const resolved: Condition[] = [];
  // A measure named only to say what is compared ("a Bestellwert above 500 €" of orders) is not asked for.
  const notAsked = new Set<string>();
  for (const w of conditions.written) {
    const c = resolveCondition(index, w, { grouped, money });
    if (!c) return { ok: false, language, unmatched };
    resolved.push(c);
    const said = measureBefore(index, w);
    if (said && said !== c.member) notAsked.add(said);
  }
  const u = understand(index, read, { language, limit: rank.limit, direction: rank.direction, joined: /\b(and|vs|compare)\b/.test(text), notAsked });
  u.ignored = u.ignored.filter((w) => !compared.has(w));
  if (resolved.length) u.conditions = resolved;
  const ors = readAlternatives(index, conditions.marked, resolved);
  if (
    ors &&
    !applyAlternatives(
      u,
      ors,
      index,
      read.groups.map((g) => index.members[g.ref]!.name),
    )
  ) {
    return { ok: false, language, unmatched, refusal: { kind: "either" } };
  }
  const analysis = { why: why.why, calculation: calculation.calculation, each: each.each, periods: time.periods };
  const side = time.periods !== undefined || why.why;
  // Two periods side by side are one `compare`, not a series: no grain, no period comparison.
  const phrases = side
    ? { ...part, named: false }
    : {
        ...compare,
        ...part,
        grain: grainWord ?? (calculation.calculation === "runningTotal" ? "month" : undefined),
        period: time.period,
        // "customers signed up in 2024" is one figure for the period; "by sign-up date" or no
        // period at all ("new customers signed up") is a series.
        // "sign-ups by country" groups by country: no series unless asked by time.
        named:
          namedTime !== undefined &&
          ((time.period === undefined && !read.groups.some((g) => !timeDims.includes(index.members[g.ref]!))) ||
            read.groups.some((g) => g.afterBy && index.members[g.ref] === namedTime)),
      };
  applyTime(u, phrases, namedTime ?? timeDims[0], opts.reference);
  applyAnalysis(u, analysis, { timeDimension: (namedTime ?? timeDims[0])?.name, period: time.period, reference: opts.reference });
  // "average orders by category": no average of a count or of an average per row; said, not dropped.
  if (per && !applyPer(u, per, index, implicit) && implicit) {
    return { ok: false, language, unmatched, refusal: { kind: "unknown", term: "average", view: index.source.name } };
  }
  applyShare(
    u,
    index,
    read.groups.map((g) => index.members[g.ref]!.name),
  );
  return { ok: true, understanding: u };
}
