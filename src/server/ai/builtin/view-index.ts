/**
 * The index of a view: its members and the values the viewer can see, each under the names it
 * may be called by (titles, name words, synonyms, country names), searched word run by word run.
 */
import MiniSearch from "minisearch";
import type { MetaMember, MetaSource } from "../../semantic/query-engine";
import { normalize, STOPWORDS } from "../builtin-language";
import { memberAliases, stem, terms, valueAliases } from "./aliases";

export { memberAliases, modelWords, stem, terms, valueAliases } from "./aliases";

/** A known value of a string dimension, with the names it may be called by. */
export interface ValueDoc {
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

export interface Match {
  kind: "measure" | "dimension" | "value";
  ref: number;
  score: number;
  exact: boolean;
  /** The question's words that named it (set by `scan`). */
  words?: string[];
  /** Named after "by" (nach, por): asked to group by, not only mentioned. */
  afterBy?: boolean;
}

/**
 * Lookups already made, per index: an index never changes (a changed model or data source is a
 * new index), and questions share their words ("revenue", "by country"), so each run of words is
 * searched once. Bounded per index; the oldest goes first.
 */
const lookups = new WeakMap<ViewIndex, Map<string, Match | null>>();
const MAX_LOOKUPS_PER_INDEX = 5000;

/** The best member or value named by exactly these words (fuzzy on long words). */
export function lookup(index: ViewIndex, words: string[], prefer: "measure" | "dimension"): Match | null {
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
export function scan(index: ViewIndex, words: string[], prefer: "measure" | "dimension", found: Match[]): string[] {
  const left: string[] = [];
  let i = 0;
  while (i < words.length) {
    let matched = false;
    for (let n = Math.min(5, words.length - i); n >= 1; n--) {
      const window = words.slice(i, i + n);
      if (n === 1 && STOPWORDS.has(window[0]!)) break;
      const m = lookup(index, window, prefer);
      if (m) {
        found.push({ ...m, words: window });
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
