/**
 * What the chat says instead of figures: that it only reads data, or that a word names nothing
 * in the data, with what the data can be grouped by (asked "by" something it does not hold) or
 * what it holds (asked about something else) — in the question's language.
 */
import { MODEL_WORDS, SAY, type Language } from "../builtin-language";
import type { MetaMember } from "../../semantic/query-engine";
import { listJoin } from "./format";
import type { Refusal } from "./understanding";
import type { ViewIndex } from "./view-index";

/**
 * A model word in the answer's language ("country" → "Land"), else the title as a word of a
 * sentence (German nouns keep their capital; a translated title "Estado" reads "estado").
 */
function word(lang: Language, title: string): string {
  const key = title.toLowerCase();
  const local = lang === "en" ? undefined : MODEL_WORDS[lang][key];
  return local ?? (lang === "de" ? title : key);
}

const shortName = (m: MetaMember) => m.name.split(".").pop()!;
const isGrouping = (d: MetaMember) => d.type === "string" && !d.primaryKey && !/(^|_)(name|tenant)$/.test(shortName(d));

/** The string dimensions of a view a question may group by; those of `entity` (`customers_…`) when given. */
export function groupingsOf(index: ViewIndex, entity?: string): MetaMember[] {
  const all = index.source.dimensions.filter(isGrouping);
  const own = entity ? all.filter((d) => shortName(d).startsWith(`${entity}_`)) : [];
  return own.length > 0 ? own : all;
}

function orList(lang: Language, items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${SAY[lang].or} ${items[items.length - 1]}`;
}

/** What the views hold: each view's title, its measures and what they can be grouped by. */
function holdings(lang: Language, indexes: ViewIndex[]): string {
  return listJoin(
    lang,
    indexes.map((i) => {
      const measures = i.source.measures.map((m) => m.shortTitle);
      const groups = groupingsOf(i).map((d) => d.shortTitle);
      return `${i.source.title} (${[measures.join(", "), groups.length ? `${SAY[lang].groupedBy} ${groups.join(", ")}` : ""].filter(Boolean).join("; ")})`;
    }),
  );
}

/** The sentence that replaces the figures. */
export function refusalText(lang: Language, refusal: Refusal, indexes: ViewIndex[]): string {
  const say = SAY[lang];
  if (refusal.kind === "write") return say.readOnly;
  if (refusal.kind === "either") return say.eitherCondition;
  const index = indexes.find((i) => i.source.name === refusal.view) ?? indexes[0];
  if (refusal.grouping && index) {
    const entity = refusal.grouping.entity;
    const groups = groupingsOf(index, entity).map((d) => word(lang, d.shortTitle));
    // Mid-sentence a view's title is a common noun: lower case but in German ("group sales by", "agrupar ventas por", "Verkäufe lassen sich").
    const who = entity ? word(lang, entity) : lang === "de" ? index.source.title : index.source.title.toLowerCase();
    return `${say.noSuch(refusal.term)}${say.groupInstead(who, orList(lang, groups))}`;
  }
  return `${say.noSuch(refusal.term)}${say.holds(holdings(lang, indexes))}`;
}
