/**
 * The names a member or value may be called by, and the word forms every match is made on:
 * plural endings folded away, country codes with their names, a time dimension by its event.
 */
import type { MetaMember } from "../../semantic/query-engine";
import { normalize, STOPWORDS } from "../builtin-language";
import type { ViewIndex } from "./view-index";

/** Plural and case endings folded away, on both sides of every match. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return word.slice(0, -3) + "y";
  if (word.length > 4 && word.endsWith("es") && /(ch|sh|ss|x)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
  return word;
}

const regionNames = (["en", "de", "es"] as const).map((l) => new Intl.DisplayNames([l], { type: "region" }));

/** Other names of a value: a two-letter country code is also its country's name in each language. */
export function valueAliases(value: string): string[] {
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
    out.push(...(SHORT_NAMES[value] ?? []));
  }
  return out;
}

/**
 * Two-letter codes written in capitals that a question would otherwise lose as a small word
 * ("for DE and FR": "de" is a stop word, as are "es", "in", "it", "at"): such a code that is a value the
 * viewer can see is spelled as its country's English name, which the indexes know it by.
 */
export function spellCodes(question: string, indexes: ViewIndex[]): string {
  // A question in capitals throughout says nothing by its capitals.
  if (question === question.toUpperCase()) return question;
  return question.replace(/\b[A-Z]{2}\b/g, (code) => {
    if (!STOPWORDS.has(code.toLowerCase()) || !indexes.some((i) => i.values.some((v) => v.value === code))) return code;
    try {
      const name = regionNames[0]!.of(code);
      return name && name !== code ? name : code;
    } catch {
      return code;
    }
  });
}

/** Countries' everyday short names that are not their region names ("USA", "EEUU", "UK"). */
const SHORT_NAMES: Record<string, string[]> = { US: ["USA", "EEUU"], GB: ["UK"], AE: ["UAE"] };

/** Names a member is called by: title, short title, its name's words, `meta.synonyms`. */
export function memberAliases(m: MetaMember): string[] {
  const short = m.name.split(".").pop()!;
  const out = new Set([m.shortTitle, short.replace(/_/g, " ")]);
  const parts = short.split("_");
  // A prefixed member (`customers_country`) is also called by its own name (`country`);
  // a prefixed `name` by its prefix (`products_name` → `product`).
  if (parts.length > 1) {
    const rest = parts.slice(1).join(" ");
    out.add(rest === "name" ? parts[0]! : rest);
  }
  // A time dimension is also called by what happened: `signed_up_at` → "signed up".
  if (m.type === "time") for (const a of [m.shortTitle, short.replace(/_/g, " ")]) if (/ (at|on)$/i.test(a)) out.add(a.replace(/ (at|on)$/i, ""));
  const synonyms = m.meta?.synonyms;
  if (Array.isArray(synonyms)) for (const s of synonyms) if (typeof s === "string") out.add(s);
  return [...out].filter((a) => a.trim().length > 0);
}

const modelWordsCache = new WeakMap<ViewIndex, Set<string>>();

/** The words of the model's names and values (normalized), across the views: what a compound may be split into. */
export function modelWords(indexes: ViewIndex[]): Set<string> {
  // A viewer's indexes are kept (viewer-indexes.ts): their words are put together once.
  const known = wordsOfIndexes.get(indexes);
  if (known) return known;
  const out = new Set<string>();
  for (const index of indexes) {
    let own = modelWordsCache.get(index);
    if (!own) {
      own = new Set(
        [...index.members.flatMap(memberAliases), ...index.values.map((v) => v.value)].flatMap((t) => normalize(t).split(" ")).filter((w) => w.length >= 4),
      );
      modelWordsCache.set(index, own);
    }
    for (const w of own) out.add(w);
  }
  wordsOfIndexes.set(indexes, out);
  return out;
}

const wordsOfIndexes = new WeakMap<ViewIndex[], Set<string>>();

export const terms = (text: string) => normalize(text).split(" ").filter(Boolean).map(stem);
