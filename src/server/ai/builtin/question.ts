/**
 * Reading a question: its language, its phrases, then the members and values it names in the
 * view that places most of it.
 */
import { canonicalize, detectLanguage, normalize } from "../builtin-language";
import { readCompare, readGrain, readPart, readRank } from "./phrases";
import { isoDay, readTime, shift, startOf } from "./time";
import type { Grain, Reading, Understanding } from "./understanding";
import { scan, type Match, type ViewIndex } from "./view-index";

/** Reads a question against one view; the view's score is how much of the question it placed. */
function readAgainst(index: ViewIndex, text: string, ranked: boolean): { found: { measures: Match[]; groups: Match[]; values: Match[] }; left: string[] } {
  const segments = text.split(/\bby\b/);
  const found = { measures: [] as Match[], groups: [] as Match[], values: [] as Match[] };
  const left: string[] = [];
  segments.forEach((segment, i) => {
    const words = segment.split(" ").filter(Boolean);
    const matches: Match[] = [];
    // "top 5 customers by revenue": what is ranked comes first, the measure after "by".
    const prefer = (i === 0) !== ranked ? "measure" : "dimension";
    left.push(...scan(index, words, prefer, matches));
    for (const m of matches) {
      if (m.kind === "value") found.values.push(m);
      else if (m.kind === "dimension") found.groups.push(m);
      else found.measures.push(m);
    }
  });
  return { found, left };
}

/**
 * Reads a question. `indexes` are the views the viewer may query; the one that places the
 * most of the question wins (the first view on a tie).
 */
export function readQuestion(question: string, indexes: ViewIndex[], opts: { locale: string; reference: Date }): Reading {
  const normalized = normalize(question);
  const language = detectLanguage(normalized, opts.locale);
  const canonical = canonicalize(normalized, language);
  const compare = readCompare(canonical);
  const part = readPart(compare.rest);
  const grain = readGrain(part.rest);
  const time = readTime(grain.rest, question, language, opts.reference);
  const rank = readRank(time.rest);
  const text = rank.rest.replace(/\s+/g, " ").trim();

  let best: { index: ViewIndex; read: ReturnType<typeof readAgainst>; score: number } | null = null;
  for (const index of indexes) {
    const read = readAgainst(index, text, rank.limit !== undefined);
    const placed = read.found.measures.length + read.found.groups.length + read.found.values.length;
    const score = placed * 10 - read.left.length;
    if (placed > 0 && (!best || score > best.score)) best = { index, read, score };
  }
  if (!best) return { ok: false, language, unmatched: question.trim().slice(0, 200) };

  const { index, read } = best;
  const member = (m: Match) => index.members[m.ref]!.name;
  const measures = [...new Set(read.found.measures.map(member))];
  const dimensions = [...new Set(read.found.groups.map(member))];
  const filtersByMember = new Map<string, string[]>();
  for (const v of read.found.values) {
    const doc = index.values[v.ref]!;
    filtersByMember.set(doc.member, [...new Set([...(filtersByMember.get(doc.member) ?? []), doc.value])]);
  }
  // "compare A and B": two values of one dimension are also its grouping.
  for (const [m, values] of filtersByMember) if (values.length > 1 && !dimensions.includes(m)) dimensions.push(m);

  const timeDims = index.source.dimensions.filter((d) => d.type === "time");
  const timeDimension = timeDims.find((d) => dimensions.includes(d.name)) ?? timeDims[0];
  const groupedDims = dimensions.filter((d) => !timeDims.some((t) => t.name === d));
  let defaultMeasure = false;
  if (measures.length === 0) {
    // Without a measure, words the model does not know mean the question is not about this data.
    if (read.left.length > 0) return { ok: false, language, unmatched: question.trim().slice(0, 200) };
    const count = index.source.measures.find((m) => m.measureType === "count") ?? index.source.measures[0];
    if (!count) return { ok: false, language, unmatched: question.trim().slice(0, 200) };
    measures.push(count.name);
    defaultMeasure = true;
  }
  const wantsTime = grain.grain !== undefined || compare.compare !== undefined || dimensions.some((d) => timeDims.some((t) => t.name === d));
  const understanding: Understanding = {
    language,
    view: index.source.name,
    measures,
    dimensions: groupedDims,
    filters: [...filtersByMember].map(([m, values]) => ({ member: m, values })),
    defaultMeasure,
    ignored: read.left,
    ...(rank.limit ? { limit: rank.limit, direction: rank.direction } : {}),
  };
  let period = time.period;
  let granularity: Grain | undefined = wantsTime ? (grain.grain ?? "month") : undefined;
  if (compare.compare && timeDimension) {
    // "growth by month": each month against the one before; "vs last year": against one year
    // earlier, per the grain asked for, else one row for the period. Growth by a dimension
    // ("which country grew most") compares the latest period with the one before it, per value.
    const unit = compare.compare.unit ?? grain.grain ?? "month";
    const onePeriod = compare.compare.against || groupedDims.length > 0;
    granularity = grain.grain ?? (onePeriod ? unit : "month");
    understanding.compare = { unit };
    // The query itself is not limited: the rank is by the change, which the query does not
    // order by. "top 5 countries by growth" keeps the five with the biggest change; without a
    // dimension, or without "top"/"bottom", the answer names the biggest change.
    if (understanding.limit && groupedDims.length > 0)
      understanding.rankByChange = { limit: understanding.limit, direction: understanding.direction ?? "desc" };
    delete understanding.limit;
    delete understanding.direction;
    if (onePeriod) {
      // A period compared with the one before it is compared to date: the same days of each
      // (this year so far against the same days a year earlier), when the data ends inside it;
      // a period that has no data yet is the one before it.
      const today = startOf("day", opts.reference);
      const current = startOf(unit, today);
      period ??= { from: current, to: shift(unit, current, 1) };
      if (period.from >= today) period = { from: shift(unit, period.from, -1), to: period.from };
      if (period.to > today && period.from < today) {
        period = { from: period.from, to: today };
        understanding.compare.toDate = true;
      }
    }
  }
  if (part.part) {
    // A part of time groups like a dimension: no series, no growth between its values.
    granularity = grain.grain;
    delete understanding.compare;
  }
  if (timeDimension && (granularity || period || part.part)) {
    understanding.time = {
      dimension: timeDimension.name,
      ...(granularity ? { granularity } : {}),
      ...(part.part ? { part: part.part } : {}),
      ...(period ? { range: { from: isoDay(period.from), to: isoDay(shift("day", period.to, -1)) } } : {}),
    };
  } else if (understanding.compare) delete understanding.compare;
  return { ok: true, understanding };
}
