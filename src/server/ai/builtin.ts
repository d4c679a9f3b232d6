/**
 * The builtin question engine: answers questions about the data model without a language
 * model. It reads a question (English, German or Spanish) as measures, groupings, filters on
 * known dimension values, a time range and "top N", builds a semantic query from them and
 * runs it through the same tools a model would use — under the viewer's security context.
 * What it cannot map onto the model it says so, with questions that work; it never invents
 * a number.
 */
import * as chrono from "chrono-node";
import MiniSearch from "minisearch";
import type { PeriodComparison } from "../../schema/dashboard";
import type { Granularity, QueryFilter, SemanticQuery, TimePart } from "../../schema/semantic-query";
import { timePartLabel } from "../../schema/time-part-labels";
import type { MetaMember, MetaSource } from "../semantic/query-engine";
import type { SecurityContext } from "../semantic/security-context";
import { AND, canonicalize, detectLanguage, GRAIN_NAMES, normalize, PART_NAMES, SAY, STOPWORDS, SUGGEST, type Language } from "./builtin-language";
import { runTool, type ToolOutcome, type ToolState } from "./tools";
import type { AiProvider, AnswerPart, ChartRequest, Emit, TurnContext } from "./types";

/** A known value of a string dimension, with the names it may be called by. */
interface ValueDoc {
  member: string;
  value: string;
}

/** What the engine knows about one view: its members and the values it has seen. */
export interface ViewIndex {
  source: MetaSource;
  search: MiniSearch<{ id: number; text: string; kind: "measure" | "dimension" | "value"; ref: number; words: number }>;
  members: MetaMember[];
  values: ValueDoc[];
}

/** The engine's reading of a question. */
export interface Understanding {
  language: Language;
  view: string;
  measures: string[];
  dimensions: string[];
  time?: { dimension: string; granularity?: Granularity; part?: TimePart; range?: { from: string; to: string }; label?: string };
  filters: { member: string; values: string[] }[];
  limit?: number;
  direction?: "asc" | "desc";
  /** Growth and period-over-period: each row against the same measure one `unit` earlier. */
  compare?: { unit: Grain; toDate?: boolean };
  /** "top 5 countries by growth": the rows ranked by their relative change, and the first `limit` kept. */
  rankByChange?: { limit: number; direction: "asc" | "desc" };
  defaultMeasure: boolean;
  ignored: string[];
}

export type Reading = { ok: true; understanding: Understanding } | { ok: false; language: Language; unmatched: string };

type Grain = "day" | "week" | "month" | "quarter" | "year";

/** Plural and case endings folded away, on both sides of every match. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return word.slice(0, -3) + "y";
  if (word.length > 4 && word.endsWith("es") && /(ch|sh|ss|x)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
  return word;
}

const regionNames = (["en", "de", "es"] as const).map((l) => new Intl.DisplayNames([l], { type: "region" }));

/** Other names of a value: a two-letter country code is also its country's name in each language. */
function valueAliases(value: string): string[] {
  const out = [value];
  if (/^[A-Z]{2}$/.test(value)) {
    for (const names of regionNames) {
      try {
        const name = names.of(value);
        if (name && name !== value) out.push(name);
      } catch {
        // not a region code
      }
    }
  }
  return out;
}

/** Names a member is called by: title, short title, its name's words, `meta.synonyms`. */
function memberAliases(m: MetaMember): string[] {
  const short = m.name.split(".").pop()!;
  const out = new Set([m.shortTitle, short.replace(/_/g, " ")]);
  const parts = short.split("_");
  // A prefixed member (`customers_country`) is also called by its own name (`country`);
  // a prefixed `name` by its prefix (`products_name` → `product`).
  if (parts.length > 1) {
    const rest = parts.slice(1).join(" ");
    out.add(rest === "name" ? parts[0]! : rest);
  }
  const synonyms = m.meta?.synonyms;
  if (Array.isArray(synonyms)) for (const s of synonyms) if (typeof s === "string") out.add(s);
  return [...out].filter((a) => a.trim().length > 0);
}

const terms = (text: string) => normalize(text).split(" ").filter(Boolean).map(stem);

/** Builds the index of one view from its members and the values the viewer can see. */
export function indexView(source: MetaSource, values: ValueDoc[]): ViewIndex {
  const members = [...source.measures, ...source.dimensions];
  const search = new MiniSearch<{ id: number; text: string; kind: "measure" | "dimension" | "value"; ref: number; words: number }>({
    fields: ["text"],
    storeFields: ["kind", "ref", "words", "text"],
    tokenize: (text) => normalize(text).split(" ").filter(Boolean),
    processTerm: (term) => stem(normalize(term)),
    searchOptions: { combineWith: "AND" },
  });
  let id = 0;
  const docs: { id: number; text: string; kind: "measure" | "dimension" | "value"; ref: number; words: number }[] = [];
  members.forEach((m, ref) => {
    const kind = source.measures.includes(m) ? "measure" : "dimension";
    if (m.type === "number" && kind === "dimension" && !m.meta?.synonyms) return; // coordinates, ids, prices: not asked "by"
    for (const alias of memberAliases(m)) docs.push({ id: id++, text: alias, kind, ref, words: terms(alias).length });
  });
  values.forEach((v, ref) => {
    for (const alias of valueAliases(v.value)) docs.push({ id: id++, text: alias, kind: "value", ref, words: terms(alias).length });
  });
  search.addAll(docs);
  return { source, search, members, values };
}

interface Match {
  kind: "measure" | "dimension" | "value";
  ref: number;
  score: number;
  exact: boolean;
}

/**
 * Lookups already made, per index: an index never changes (a changed model or data source is a
 * new index), and questions share their words ("revenue", "by country"), so each run of words is
 * searched once. Bounded per index; the oldest goes first.
 */
const lookups = new WeakMap<ViewIndex, Map<string, Match | null>>();
const MAX_LOOKUPS_PER_INDEX = 5000;

/** The best member or value named by exactly these words (fuzzy on long words). */
function lookup(index: ViewIndex, words: string[], prefer: "measure" | "dimension"): Match | null {
  let memo = lookups.get(index);
  if (!memo) lookups.set(index, (memo = new Map()));
  const key = `${prefer} ${words.join(" ")}`;
  if (memo.has(key)) {
    const known = memo.get(key)!;
    return known && { ...known };
  }
  const found = search(index, words, prefer);
  memo.set(key, found);
  if (memo.size > MAX_LOOKUPS_PER_INDEX) memo.delete(memo.keys().next().value!);
  return found && { ...found };
}

function search(index: ViewIndex, words: string[], prefer: "measure" | "dimension"): Match | null {
  const query = words.join(" ");
  const hits = index.search.search(query, { fuzzy: (term) => (term.length > 5 ? 0.2 : 0), combineWith: "AND" });
  const wanted = words.map(stem).join(" ");
  let best: Match | null = null;
  for (const h of hits) {
    if (h.words !== words.length) continue;
    const exact = terms(h.text as string).join(" ") === wanted;
    // Short values (two-letter codes) only match when written exactly.
    if (!exact && (h.text as string).length <= 3) continue;
    const rank = h.score * (exact ? 2 : 1) * (h.kind === prefer ? 1.5 : 1);
    if (!best || rank > best.score) best = { kind: h.kind as Match["kind"], ref: h.ref as number, score: rank, exact };
  }
  return best;
}

/** Finds members and values in a run of words, longest names first; returns the words it could not place. */
function scan(index: ViewIndex, words: string[], prefer: "measure" | "dimension", found: Match[]): string[] {
  const left: string[] = [];
  let i = 0;
  while (i < words.length) {
    let matched = false;
    for (let n = Math.min(5, words.length - i); n >= 1; n--) {
      const window = words.slice(i, i + n);
      if (n === 1 && STOPWORDS.has(window[0]!)) break;
      const m = lookup(index, window, prefer);
      if (m) {
        found.push(m);
        i += n;
        matched = true;
        break;
      }
    }
    if (!matched) {
      if (!STOPWORDS.has(words[i]!) && !/^(and|vs|compare|count|by|or)$/.test(words[i]!)) left.push(words[i]!);
      i++;
    }
  }
  return left;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d = 1) => new Date(Date.UTC(y, m, d));

function startOf(unit: Grain, d: Date): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (unit === "year") return utc(y, 0);
  if (unit === "quarter") return utc(y, m - (m % 3));
  if (unit === "month") return utc(y, m);
  if (unit === "week") return utc(y, m, d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return utc(y, m, d.getUTCDate());
}

function shift(unit: Grain, d: Date, n: number): Date {
  if (unit === "year") return utc(d.getUTCFullYear() + n, d.getUTCMonth(), d.getUTCDate());
  if (unit === "quarter") return utc(d.getUTCFullYear(), d.getUTCMonth() + 3 * n, d.getUTCDate());
  if (unit === "month") return utc(d.getUTCFullYear(), d.getUTCMonth() + n, d.getUTCDate());
  if (unit === "week") return utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 7 * n);
  return utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + n);
}

/** [from, to) of a period; `to` is exclusive here and made inclusive for the query. */
interface Period {
  from: Date;
  to: Date;
}

/**
 * Time phrases: relative periods ("last quarter", "this year", "last 3 months") against the
 * reference day, years, quarters ("Q1 2025"), and dates and months through chrono-node in the
 * question's language. Returns the period and the canonical text without the phrase.
 */
function readTime(canonical: string, original: string, lang: Language, reference: Date): { period?: Period; rest: string } {
  const today = startOf("day", reference);
  let m = /\b(last|this) (\d+ )?(day|week|month|quarter|year)s?\b|\b(day|week|month|quarter|year)s? (last|this)\b/.exec(canonical);
  if (m) {
    const which = (m[1] ?? m[5]) as "last" | "this";
    const unit = (m[3] ?? m[4]) as Grain;
    const n = m[2] ? Number(m[2]) : 1;
    const current = startOf(unit, today);
    const period = which === "this" ? { from: current, to: shift(unit, current, 1) } : { from: shift(unit, current, -n), to: current };
    return { period, rest: canonical.replace(m[0], " ") };
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
  const parser = lang === "de" ? chrono.de : lang === "es" ? chrono.es : chrono.en;
  const parsed = MONTH_OR_DATE.test(normalize(original)) ? parser.parse(original, reference).find((r) => r.start.isCertain("month")) : undefined;
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
    return { period: { from, to }, rest };
  }
  m = /\b(?:year )?((?:19|20)\d{2})\b/.exec(canonical);
  if (m) {
    const y = Number(m[1]);
    return { period: { from: utc(y, 0), to: utc(y + 1, 0) }, rest: canonical.replace(m[0], " ") };
  }
  return { rest: canonical };
}

/** Month names and abbreviations (English, German, Spanish; normalized) or a written date. */
const MONTH_OR_DATE =
  /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|januar|februar|marz|mai|juni|juli|oktober|dezember|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|ene|abr|ago|dic)\b|\d{1,4}[./-]\d{1,2}/;

/**
 * Growth and period-over-period phrases: "growth", "change", "vs last year", "compared to the
 * previous month", "year over year", "YoY". Returns the unit compared against (when named) and
 * whether a growth word (rather than a named period) asked for it.
 */
function readCompare(canonical: string): { compare?: { unit?: Grain; against: boolean }; rest: string } {
  let rest = canonical;
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

const PART_WORDS: Record<string, TimePart> = { weekday: "dayOfWeek", hourofday: "hourOfDay", monthofyear: "monthOfYear" };

/** "by day of week", "nach Wochentag", "por hora del día": a part of time (canonical words from builtin-language.ts). */
function readPart(canonical: string): { part?: TimePart; rest: string } {
  const m = /\b(?:(?:by|per|each|every|on|in) )?(weekday|hourofday|monthofyear)\b/.exec(canonical);
  return m ? { part: PART_WORDS[m[1]!], rest: canonical.replace(m[0], " ") } : { rest: canonical };
}

function readGrain(canonical: string): { grain?: Grain; rest: string } {
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

function readRank(canonical: string): { limit?: number; direction?: "asc" | "desc"; rest: string } {
  const m = /\b(top|bottom) (\d{1,3})\b|\b(\d{1,3}) (top|bottom)\b|\b(top|bottom)\b/.exec(canonical);
  if (!m) return { rest: canonical };
  const word = (m[1] ?? m[4] ?? m[5]) as "top" | "bottom";
  const n = Number(m[2] ?? m[3] ?? (m[5] ? 1 : 10));
  return { limit: Math.max(1, Math.min(n, 100)), direction: word === "top" ? "desc" : "asc", rest: canonical.replace(m[0], " ") };
}

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

/** The output columns of an understanding's period comparison: previous value, change, relative change. */
export function comparisonColumns(u: Understanding): { previous: string; change: string; percent: string } | null {
  if (!u.compare) return null;
  const m = u.measures[0]!;
  return { previous: `${m}_prev_${u.compare.unit}`, change: `${m}_change`, percent: `${m}_change_pct` };
}

/** The period comparisons of an understanding (growth, period over period), for `run_query`. */
export function comparisonsOf(u: Understanding): PeriodComparison[] | undefined {
  const cols = comparisonColumns(u);
  if (!cols || !u.time) return undefined;
  return [
    {
      measure: u.measures[0]!,
      timeDimension: u.time.dimension,
      offset: { amount: 1, unit: u.compare!.unit },
      outputs: [cols.previous, cols.change, cols.percent],
    },
  ];
}

/** `run_query`'s arguments for an understanding: its query, and its period comparisons when it has them. */
export function runQueryArgs(u: Understanding): { query: SemanticQuery; periodComparisons?: PeriodComparison[] } {
  const periodComparisons = comparisonsOf(u);
  return { query: queryOf(u), ...(periodComparisons ? { periodComparisons } : {}) };
}

/** The semantic query of an understanding. */
export function queryOf(u: Understanding): SemanticQuery {
  const query: SemanticQuery = { measures: u.measures };
  if (u.dimensions.length) query.dimensions = u.dimensions;
  if (u.time) {
    query.timeDimensions = [
      {
        dimension: u.time.dimension,
        ...(u.time.granularity ? { granularity: u.time.granularity } : {}),
        ...(u.time.part ? { part: u.time.part } : {}),
        ...(u.time.range ? { dateRange: [u.time.range.from, u.time.range.to] as [string, string] } : {}),
      },
    ];
  }
  if (u.filters.length)
    query.filters = u.filters.map((f): QueryFilter => ({ member: f.member, operator: f.values.length > 1 ? "in" : "equals", values: f.values }));
  if (u.limit) {
    query.order = [[u.measures[0]!, u.direction ?? "desc"]];
    query.limit = u.limit;
  } else if (u.time?.part) query.order = [[`${u.time.dimension}.${u.time.part}`, "asc"]];
  else if (u.time?.granularity) query.order = [[u.time.dimension, "asc"]];
  else if (u.dimensions.length) query.order = [[u.measures[0]!, "desc"]];
  return query;
}

// ---------------------------------------------------------------------------------------
// Answering

/**
 * The viewers' indexes, kept a short while per security context, per query engine: a changed
 * data model or data source gives the deployment a new engine, and so new indexes.
 */
type IndexEntry = { at: number; indexes: Promise<ViewIndex[]>; reference: Promise<Date> };
const indexCaches = new WeakMap<TurnContext["engine"], Map<string, IndexEntry>>();
const INDEX_TTL_MS = 60_000;
const MAX_VALUES_PER_DIMENSION = 500;

async function buildIndexes(ctx: TurnContext, sources: MetaSource[]): Promise<ViewIndex[]> {
  const out: ViewIndex[] = [];
  for (const source of sources) {
    const values: ValueDoc[] = [];
    for (const d of source.dimensions) {
      if (d.type !== "string") continue;
      const list = await ctx.engine.distinctValues(
        d.name,
        { limit: MAX_VALUES_PER_DIMENSION },
        { securityContext: ctx.securityContext, signal: ctx.signal, timeoutMs: ctx.queryTimeoutMs },
      );
      for (const v of list) if (typeof v === "string" && v.length <= 100) values.push({ member: d.name, value: v });
    }
    out.push(indexView(source, values));
  }
  return out;
}

/**
 * The day relative dates count from: today, or the day after the last data point when the
 * data ends before today (a data set that stopped last year still answers "last quarter").
 */
async function referenceDay(ctx: TurnContext, sources: MetaSource[]): Promise<Date> {
  const now = new Date();
  const source = sources.find((s) => s.dimensions.some((d) => d.type === "time") && s.measures.length > 0);
  if (!source) return now;
  const dim = source.dimensions.find((d) => d.type === "time")!;
  try {
    const result = await ctx.engine.load(
      { measures: [source.measures[0]!.name], timeDimensions: [{ dimension: dim.name, granularity: "day" }], order: [[dim.name, "desc"]], limit: 1 },
      { securityContext: ctx.securityContext, signal: ctx.signal, timeoutMs: ctx.queryTimeoutMs },
    );
    const last = result.data[0]?.[`${dim.name}.day`];
    if (typeof last !== "string") return now;
    const next = new Date(Date.parse(last.slice(0, 10) + "T00:00:00Z") + 86_400_000);
    return next < now ? next : now;
  } catch {
    return now;
  }
}

function securityKey(deploymentId: number, sc: SecurityContext, views: string[] | undefined): string {
  return JSON.stringify([deploymentId, sc.role ?? null, sc.userId ?? null, sc.embedTenant, [...sc.groups].sort(), sc.userAttributes, views ?? null]);
}

/** The viewer's view indexes and reference day (cached for a minute per viewer). */
export async function viewerIndexes(ctx: TurnContext): Promise<{ indexes: ViewIndex[]; reference: Date }> {
  const all = ctx.engine.meta(ctx.securityContext).sources;
  const views = all.some((s) => s.kind === "view") ? all.filter((s) => s.kind === "view") : all;
  const sources = ctx.views ? views.filter((v) => ctx.views!.includes(v.name)) : views;
  const key = securityKey(ctx.deploymentId, ctx.securityContext, ctx.views);
  let indexCache = indexCaches.get(ctx.engine);
  if (!indexCache) indexCaches.set(ctx.engine, (indexCache = new Map()));
  const cache = indexCache;
  let entry = cache.get(key);
  if (!entry || Date.now() - entry.at > INDEX_TTL_MS) {
    entry = { at: Date.now(), indexes: buildIndexes(ctx, sources), reference: referenceDay(ctx, sources) };
    cache.set(key, entry);
    entry.indexes.catch(() => cache.delete(key));
    if (cache.size > 200) cache.delete(cache.keys().next().value!);
  }
  return { indexes: await entry.indexes, reference: await entry.reference };
}

// Intl formatters are costly to make and stateless to use: one per language and kind.
const intlCache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let f = intlCache.get(key) as T | undefined;
  if (!f) intlCache.set(key, (f = make()));
  return f;
}

function formatter(lang: Language, format: string | undefined): Intl.NumberFormat {
  if (format === "percent") return cached(`n:${lang}:percent`, () => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 }));
  if (format === "currency")
    return cached(`n:${lang}:currency`, () => new Intl.NumberFormat(lang, { style: "currency", currency: "USD", maximumFractionDigits: 2 }));
  return cached(`n:${lang}`, () => new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }));
}

const dateFormat = (lang: Language) => cached(`d:${lang}`, () => new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" }));
const monthFormat = (lang: Language) => cached(`m:${lang}`, () => new Intl.DateTimeFormat(lang, { month: "long", year: "numeric", timeZone: "UTC" }));

function formatValue(lang: Language, value: unknown, format: string | undefined): string {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? formatter(lang, format).format(n) : String(value ?? "–");
}

function formatPeriod(lang: Language, value: unknown, grain: Granularity | undefined): string {
  if (typeof value !== "string") return String(value);
  const d = new Date(value.slice(0, 10) + "T00:00:00Z");
  if (Number.isNaN(d.getTime())) return value;
  if (grain === "year") return String(d.getUTCFullYear());
  if (grain === "quarter") return `Q${Math.floor(d.getUTCMonth() / 3) + 1} ${d.getUTCFullYear()}`;
  if (grain === "month") return monthFormat(lang).format(d);
  return dateFormat(lang).format(d);
}

function listJoin(lang: Language, items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${AND[lang]} ${items[items.length - 1]}`;
}

function titleOf(indexes: ViewIndex[], name: string): string {
  for (const i of indexes) {
    const m = i.members.find((x) => x.name === name);
    if (m) return m.shortTitle;
  }
  return name;
}

/** "I read this as: …" in the question's language. */
export function describeUnderstanding(u: Understanding, indexes: ViewIndex[], reference: Date): string {
  const say = SAY[u.language];
  const t = (n: string) => titleOf(indexes, n);
  const parts = [`**${listJoin(u.language, u.measures.map(t))}**${u.defaultMeasure ? ` ${say.defaultMeasure(t(u.measures[0]!))}` : ""}`];
  if (u.dimensions.length) parts.push(`${say.groupedBy} ${listJoin(u.language, u.dimensions.map(t))}`);
  if (u.time?.part) parts.push(`${say.groupedBy} ${PART_NAMES[u.language][u.time.part]}`);
  if (u.time?.granularity) parts.push(say.overTime(GRAIN_NAMES[u.language][u.time.granularity] ?? u.time.granularity));
  for (const f of u.filters) parts.push(`${say.filteredBy} ${t(f.member)} = ${f.values.join(" / ")}`);
  if (u.time?.range) {
    const fmt = dateFormat(u.language);
    const from = fmt.format(new Date(u.time.range.from + "T00:00:00Z"));
    const to = fmt.format(new Date(u.time.range.to + "T00:00:00Z"));
    parts.push(`${say.period} ${t(u.time.dimension)}: ${from} – ${to}`);
  }
  if (u.limit) parts.push(u.direction === "asc" ? say.bottom(u.limit) : say.top(u.limit));
  if (u.compare) parts.push(u.compare.toDate ? say.comparedToDate(u.compare.unit) : say.compared(u.compare.unit));
  if (u.rankByChange) parts.push(u.rankByChange.direction === "asc" ? say.bottomByChange(u.rankByChange.limit) : say.topByChange(u.rankByChange.limit));
  let text = `${say.understood}: ${parts.join(", ")}.`;
  if (u.time?.range && startOfDay(reference) < startOfDay(new Date())) {
    text += ` (${say.relativeTo(dateFormat(u.language).format(new Date(reference.getTime() - 86_400_000)))})`;
  }
  if (u.ignored.length) text += ` ${say.ignored}: “${u.ignored.join(" ")}”.`;
  return text;
}

const startOfDay = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());

/** A short written answer from the rows: the total, the leaders, or the peak of a series. */
export function summarize(u: Understanding, rows: Record<string, unknown>[], columns: { key: string; title: string; format?: string }[]): string {
  const say = SAY[u.language];
  if (rows.length === 0) return say.noRows;
  const cols = comparisonColumns(u);
  if (cols) return summarizeGrowth(u, rows, columns, cols);
  const measure = u.measures[0]!;
  const mcol = columns.find((c) => c.key === measure);
  const mTitle = mcol?.title ?? measure;
  const fmt = (v: unknown) => formatValue(u.language, v, mcol?.format);
  const timeKey = u.time?.granularity ? `${u.time.dimension}.${u.time.granularity}` : null;
  const partKey = u.time?.part ? `${u.time.dimension}.${u.time.part}` : null;
  if (partKey && !timeKey && !u.dimensions.length) {
    // By weekday, hour or month of the year: the busiest and the quietest, named in the question's language.
    const part = u.time!.part!;
    const name = (r: Record<string, unknown>) => timePartLabel(u.language, part, Number(r[partKey]));
    const sorted = [...rows].sort((a, b) => Number(b[measure]) - Number(a[measure]));
    const top = sorted[0]!;
    const low = sorted[sorted.length - 1]!;
    let text = say.leads(mTitle, name(top), fmt(top[measure]));
    if (rows.length > 1) text += `; ${say.low(name(low), fmt(low[measure]))}`;
    return `${text}. ${say.rows(rows.length)}`;
  }
  if (!u.dimensions.length && !timeKey) {
    return u.measures
      .map((m) => say.total(columns.find((c) => c.key === m)?.title ?? m, formatValue(u.language, rows[0]![m], columns.find((c) => c.key === m)?.format)))
      .join(" ");
  }
  if (timeKey && !u.dimensions.length) {
    const sorted = [...rows].sort((a, b) => Number(b[measure]) - Number(a[measure]));
    const top = sorted[0]!;
    const low = sorted[sorted.length - 1]!;
    const sum = rows.reduce((s, r) => s + (Number(r[measure]) || 0), 0);
    const additive = mcol?.format !== "percent" && !/average|rate/i.test(measure);
    let text = `${say.peak(mTitle, formatPeriod(u.language, top[timeKey], u.time!.granularity), fmt(top[measure]))}`;
    if (rows.length > 1) text += `; ${say.low(formatPeriod(u.language, low[timeKey], u.time!.granularity), fmt(low[measure]))}`;
    text += ".";
    if (additive) text += ` ${say.total(mTitle, fmt(sum))}`;
    return `${text} ${say.rows(rows.length)}`;
  }
  const dim = u.dimensions[0]!;
  const label = (r: Record<string, unknown>) => u.dimensions.map((d) => String(r[d] ?? "–")).join(" · ");
  const sorted = u.direction === "asc" ? rows : [...rows].sort((a, b) => Number(b[measure]) - Number(a[measure]));
  const [first, ...rest] = sorted;
  let text = say.leads(mTitle, label(first!), fmt(first![measure]));
  if (rest.length)
    text += `, ${say.then} ${rest
      .slice(0, 2)
      .map((r) => `${label(r)} (${fmt(r[measure])})`)
      .join(", ")}`;
  void dim;
  return `${text}. ${say.rows(rows.length)}`;
}

const signedNumber = (lang: Language, format: string | undefined) =>
  cached(`s:${lang}:${format === "currency" ? "currency" : ""}`, () =>
    format === "currency"
      ? new Intl.NumberFormat(lang, { style: "currency", currency: "USD", maximumFractionDigits: 2, signDisplay: "exceptZero" })
      : new Intl.NumberFormat(lang, { maximumFractionDigits: 2, signDisplay: "exceptZero" }),
  );
const signedPercent = (lang: Language) =>
  cached(`p:${lang}`, () => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1, signDisplay: "exceptZero" }));

/** Growth and period over period: the biggest rise and fall, or the period against the one before. */
function summarizeGrowth(
  u: Understanding,
  rows: Record<string, unknown>[],
  columns: { key: string; title: string; format?: string }[],
  cols: { previous: string; change: string; percent: string },
): string {
  const say = SAY[u.language];
  const measure = u.measures[0]!;
  const mcol = columns.find((c) => c.key === measure);
  const mTitle = mcol?.title ?? measure;
  const fmt = (v: unknown) => formatValue(u.language, v, mcol?.format);
  const pct = (v: unknown) => signedPercent(u.language).format(Number(v));
  const signed = (v: unknown) => (Number.isFinite(Number(v)) ? signedNumber(u.language, mcol?.format).format(Number(v)) : "–");
  const timeKey = `${u.time!.dimension}.${u.time!.granularity}`;
  const when = (r: Record<string, unknown>) => formatPeriod(u.language, r[timeKey], u.time!.granularity);
  const compared = rows.filter((r) => r[cols.percent] !== null && r[cols.percent] !== undefined && Number.isFinite(Number(r[cols.percent])));
  if (compared.length === 0) return `${say.noEarlier(mTitle)} ${say.rows(rows.length)}`;
  const byChange = [...compared].sort((a, b) => Number(b[cols.percent]) - Number(a[cols.percent]));
  if (u.dimensions.length) {
    const label = (r: Record<string, unknown>) => u.dimensions.map((d) => String(r[d] ?? "–")).join(" · ");
    const best = byChange[0]!;
    const worst = byChange[byChange.length - 1]!;
    let text = say.grewMost(mTitle, label(best), pct(best[cols.percent]));
    if (byChange.length > 1) text += `; ${say.grewLeast(label(worst), pct(worst[cols.percent]))}`;
    return `${text}. ${say.rows(rows.length)}`;
  }
  if (compared.length === 1 && rows.length === 1) {
    const r = compared[0]!;
    return say.against(mTitle, fmt(r[measure]), fmt(r[cols.previous]), pct(r[cols.percent]), signed(r[cols.change]));
  }
  const best = byChange[0]!;
  const worst = byChange[byChange.length - 1]!;
  const latest = [...compared].sort((a, b) => String(b[timeKey]).localeCompare(String(a[timeKey])))[0]!;
  let text = say.grewMost(mTitle, when(best), pct(best[cols.percent]));
  if (Number(worst[cols.percent]) < 0) text += `; ${say.fellMost(when(worst), pct(worst[cols.percent]))}`;
  text += `. ${say.latest(when(latest), pct(latest[cols.percent]), fmt(latest[cols.previous]), fmt(latest[measure]))} ${say.rows(rows.length)}`;
  return text;
}

/** Questions that work on these views, in the language of the question. */
export function suggestionsFor(indexes: ViewIndex[], lang: Language, u?: Understanding): string[] {
  const out: string[] = [];
  const say = SUGGEST[lang];
  for (const index of indexes) {
    const measures = index.source.measures.filter((m) => m.measureType !== "number" || m.format);
    const dims = index.source.dimensions.filter((d) => d.type === "string" && !d.primaryKey && !/(^|_)name$/.test(d.name.split(".").pop()!));
    const m0 = measures[0];
    const m1 = measures.find((m) => m.format === "currency") ?? measures[1] ?? m0;
    if (!m0) continue;
    const used = new Set(u ? [...u.dimensions, ...u.measures] : []);
    const freeDims = dims.filter((d) => !used.has(d.name));
    if (u && u.view === index.source.name) {
      const m = titleOf(indexes, u.measures[0]!);
      if (!u.time?.granularity && index.source.dimensions.some((d) => d.type === "time")) out.push(say.overTime(m));
      if (u.time?.granularity && !u.compare) out.push(say.growth(m, GRAIN_NAMES[lang][u.time.granularity] ?? u.time.granularity));
      if (freeDims[0]) out.push(say.by(m, freeDims[0].shortTitle));
      if (freeDims[1]) out.push(say.top(5, freeDims[1].shortTitle, m));
    } else if (!u) {
      if (dims[0] && m1) out.push(say.by(m1.shortTitle, dims[dims.length > 2 ? 2 : 0]!.shortTitle));
      if (dims[1]) out.push(say.top(5, dims[1].shortTitle, m0.shortTitle));
      if (index.source.dimensions.some((d) => d.type === "time")) out.push(say.overTime(m0.shortTitle));
    }
    if (out.length >= 3) break;
  }
  return out.slice(0, 3);
}

/** Which chart fits the rows of an understanding. */
function chartFor(u: Understanding): ChartRequest | null {
  const measure = u.measures[0]!;
  const cols = comparisonColumns(u);
  if (cols && u.time?.granularity) {
    const x = `${u.time.dimension}.${u.time.granularity}`;
    // Growth over a series: the relative change per period; a period against a year earlier: both lines.
    if (u.dimensions.length) return { type: "bar", x: u.dimensions[0]!, y: [measure, cols.previous] };
    if (u.compare!.unit === u.time.granularity) return { type: "bar", x, y: [cols.percent] };
    return { type: "line", x, y: [measure, cols.previous] };
  }
  if (u.time?.part && !u.time.granularity) return { type: "bar", x: `${u.time.dimension}.${u.time.part}`, y: [measure] };
  if (u.time?.granularity) {
    const x = `${u.time.dimension}.${u.time.granularity}`;
    return { type: "line", x, y: [measure], ...(u.dimensions[0] ? { series: u.dimensions[0] } : {}) };
  }
  if (u.dimensions.length) return { type: "bar", x: u.dimensions[0]!, y: [measure], ...(u.dimensions[1] ? { series: u.dimensions[1] } : {}) };
  return null;
}

let partSeq = 0;
const partId = () => `p${Date.now().toString(36)}${(partSeq++).toString(36)}`;

/** Runs one tool and streams its call, its result and the parts it produced. */
export async function callTool(name: string, args: unknown, ctx: TurnContext, state: ToolState, emit: Emit, after?: (outcome: ToolOutcome) => ToolOutcome) {
  const shown = typeof args === "string" ? (args.length > 2000 ? args.slice(0, 2000) + "…" : args) : args;
  emit({ id: partId(), type: "tool_call", name: name.slice(0, 100), arguments: shown });
  let outcome = await runTool(name, args, ctx, state);
  if (after && outcome.ok) outcome = after(outcome);
  emit({ id: partId(), type: "tool_result", name, ok: outcome.ok, summary: outcome.summary });
  for (const p of outcome.parts) emit({ ...p, id: partId() } as AnswerPart);
  return outcome;
}

export { partId };

/**
 * "top 5 countries by growth": the query's rows ranked by their relative change (rows without
 * an earlier figure last) and the first `limit` kept, in the table, the chart and the summary.
 */
export function rankedByChange(u: Understanding, outcome: ToolOutcome, state: ToolState): ToolOutcome {
  const cols = comparisonColumns(u);
  if (!u.rankByChange || !cols || !state.lastRows) return outcome;
  const { limit, direction } = u.rankByChange;
  const change = (r: Record<string, unknown>) => {
    const v = r[cols.percent];
    return v === null || v === undefined || !Number.isFinite(Number(v)) ? null : Number(v);
  };
  const ranked = [...state.lastRows]
    .sort((a, b) => {
      const x = change(a);
      const y = change(b);
      if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
      return direction === "asc" ? x - y : y - x;
    })
    .slice(0, limit);
  state.lastRows = ranked;
  return {
    ...outcome,
    summary: `${ranked.length} rows`,
    parts: outcome.parts.map((p) => (p.type === "table" ? { ...p, rows: ranked, truncated: false } : p)),
  };
}

/** The builtin provider: reads the question, runs it through the tools, writes the answer. */
export const builtinProvider: AiProvider = {
  name: "builtin",
  async answer(question, _history, ctx, emit) {
    const state: ToolState = {};
    await callTool("list_views", {}, ctx, state, emit);
    const { indexes, reference } = await viewerIndexes(ctx);
    const reading = readQuestion(question, indexes, { locale: ctx.locale, reference });
    if (!reading.ok) {
      const say = SAY[reading.language];
      emit({ id: partId(), type: "text", text: `${say.cannot} ${say.noMatch(reading.unmatched)}\n\n${say.tryThese}` });
      emit({ id: partId(), type: "suggestions", suggestions: suggestionsFor(indexes, reading.language) });
      return;
    }
    const u = reading.understanding;
    await callTool("describe_view", { view: u.view }, ctx, state, emit);
    emit({ id: partId(), type: "text", text: describeUnderstanding(u, indexes, reference) + "\n\n" });
    const outcome = await callTool("run_query", runQueryArgs(u), ctx, state, emit, (o) => rankedByChange(u, o, state));
    if (!outcome.ok) {
      const say = SAY[u.language];
      emit({ id: partId(), type: "text", text: `${say.cannot} ${outcome.summary}` });
      emit({ id: partId(), type: "suggestions", suggestions: suggestionsFor(indexes, u.language) });
      return;
    }
    const chart = state.lastRows && state.lastRows.length > 1 ? chartFor(u) : null;
    // The chart speaks the answer's language (the question's), like its text.
    if (chart) await callTool("render_chart", chart, { ...ctx, locale: u.language }, state, emit);
    emit({ id: partId(), type: "text", text: summarize(u, state.lastRows ?? [], state.lastColumns ?? []) });
    emit({ id: partId(), type: "suggestions", suggestions: suggestionsFor(indexes, u.language, u) });
  },
};
