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
import { readTime } from "./time";
import type { Condition, Reading, Understanding } from "./understanding";
import { isTerm, placedCount, readAgainst, type Found } from "./placement";
import { modelWords, type Match, type ViewIndex } from "./view-index";

/**
 * Reads a question. `indexes` are the views the viewer may query; the one that places the
 * most of the question wins (the first view on a tie).
 */
export function readQuestion(question: string, indexes: ViewIndex[], opts: { locale: string; reference: Date }): Reading {
  const unmatched = question.trim().slice(0, 200);
  // Thousands separators ("$1,000", "1.000 €") before the punctuation is dropped.
  let normalized = normalize(question.replace(/(\d)[,.](\d{3})(?!\d)/g, "$1$2"));
  let language = detectLanguage(normalized, opts.locale);
  if (isWriteRequest(normalized)) return { ok: false, language, unmatched, refusal: { kind: "write" } };
  // German compounds, split when the split text reads as German ("Umsatzentwicklung 2024" has no other German word).
  const split = splitCompounds(normalized, modelWords(indexes));
  if (split !== normalized && (language === "de" || detectLanguage(split, opts.locale) === "de")) {
    normalized = split;
    language = "de";
  }
  const canonical = canonicalize(normalized, language);
  const compare = readCompare(canonical);
  const part = readPart(compare.rest);
  const grain = readGrain(part.rest);
  const time = readTime(grain.rest, question, language, opts.reference);
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

  let best: { index: ViewIndex; read: Found; score: number } | null = null;
  for (const index of indexes) {
    const read = readAgainst(index, text, rank.limit !== undefined);
    const score = placedCount(read) * 10 - read.left.length;
    if (!best || score > best.score) best = { index, read, score };
  }
  if (!best) return { ok: false, language, unmatched };
  const { index, read } = best;
  const compared = new Set(conditions.written.flatMap((w) => w.before).filter((w) => namesNumber(index, w)));
  const unknown = read.left.filter((w) => isTerm(w) && !compared.has(w));
  if (unknown.length > 0 || placedCount(read) + conditions.written.length + (bare ? 1 : 0) === 0) {
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
  applyTime(u, { ...compare, ...part, grain: grainWord, period: time.period, named: namedTime !== undefined }, namedTime ?? timeDims[0], opts.reference);
  return { ok: true, understanding: u };
}

/** The understanding of what a view placed: measures (a count by default), groupings and filters. */
function understand(
  index: ViewIndex,
  read: Found,
  o: { language: Understanding["language"]; limit?: number; direction?: "asc" | "desc"; joined: boolean; notAsked: Set<string> },
): Understanding {
  const member = (m: Match) => index.members[m.ref]!;
  let measures = [...new Set(read.measures.map((m) => member(m).name))];
  if (measures.some((m) => !o.notAsked.has(m))) measures = measures.filter((m) => !o.notAsked.has(m));
  // "revenue from orders …": the orders are what the revenue is of, unless both are asked ("revenue and orders").
  if (measures.length > 1 && !o.joined) {
    const counted = new Set(read.measures.filter((m) => member(m).measureType === "count").map((m) => member(m).name));
    if (counted.size < measures.length) measures = measures.filter((m) => !counted.has(m));
  }
  const timeDims = new Set(index.source.dimensions.filter((d) => d.type === "time").map((d) => d.name));
  const dimensions = [...new Set(read.groups.map((m) => member(m).name))].filter((d) => !timeDims.has(d));
  const valuesOf = (matches: Match[]) => {
    const byMember = new Map<string, string[]>();
    for (const v of matches) {
      const doc = index.values[v.ref]!;
      byMember.set(doc.member, [...new Set([...(byMember.get(doc.member) ?? []), doc.value])]);
    }
    return byMember;
  };
  const kept = valuesOf(read.values);
  // "compare A and B": two values of one dimension are also its grouping.
  for (const [m, values] of kept) if (values.length > 1 && !dimensions.includes(m)) dimensions.push(m);
  const filters: Understanding["filters"] = [...kept].map(([m, values]) => ({ member: m, values }));
  for (const [m, values] of valuesOf(read.excluded)) filters.push({ member: m, values, exclude: true });
  let defaultMeasure = false;
  if (measures.length === 0) {
    const count = index.source.measures.find((m) => m.measureType === "count") ?? index.source.measures[0];
    if (count) measures = [count.name];
    defaultMeasure = true;
  }
  return {
    language: o.language,
    view: index.source.name,
    measures,
    dimensions,
    filters,
    defaultMeasure,
    ignored: read.left,
    ...(o.limit ? { limit: o.limit, direction: o.direction } : {}),
  };
}
