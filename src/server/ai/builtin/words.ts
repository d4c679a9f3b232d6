/**
 * The words an answer names things by: the answer is written in the question's language, so
 * members and values are named from the deployment's dictionary for that language — the
 * surface's own when the two agree, else the one `contentIn` finds for the question's language
 * (none: the model's titles and the raw values, never another language's).
 */
import type { MetaMember } from "../../semantic/query-engine";
import type { Language } from "../builtin-language";
import type { TurnContext } from "../types";
import type { Understanding } from "./understanding";
import type { ViewIndex } from "./view-index";

/** The language of a locale tag (`de-AT` → `de`). */
const languageOf = (locale: string) => locale.split(/[-_]/)[0]!.toLowerCase();

/** The turn's context with its content words in `language`: the surface's when it speaks it, else that language's. */
export async function inLanguage(ctx: TurnContext, language: Language): Promise<TurnContext> {
  if (languageOf(ctx.locale) === language || !ctx.contentIn) return ctx;
  const own = await ctx.contentIn(language);
  return { ...ctx, translate: own.translate, memberTitle: own.memberTitle, valueLabel: own.valueLabel };
}

/** Indexes whose members (and the views' own lists of them) carry the titles of `memberTitle`; the reading is unchanged. */
export function titledIndexes(indexes: ViewIndex[], memberTitle: TurnContext["memberTitle"]): ViewIndex[] {
  if (!memberTitle) return indexes;
  const titled = new Map<MetaMember, MetaMember>();
  const title = (m: MetaMember) => {
    let t = titled.get(m);
    if (!t) titled.set(m, (t = { ...m, title: memberTitle(m.name, m.title), shortTitle: memberTitle(m.name, m.shortTitle) }));
    return t;
  };
  return indexes.map((i) => ({
    ...i,
    members: i.members.map(title),
    // The view's own title too ("Sales" → "Verkäufe"), by the dictionary's texts.
    source: {
      ...i.source,
      title: memberTitle(i.source.name, i.source.title),
      measures: i.source.measures.map(title),
      dimensions: i.source.dimensions.map(title),
    },
  }));
}

type Column = { key: string; title: string; format?: string };

/**
 * The columns the answer's sentences name things by: the result's, and the understanding's
 * measures and groupings that are no column of their own (two periods side by side have
 * `revenue.current`, not `revenue`) by their titles in `indexes`, so a sentence never falls back
 * to a column's untranslated suffix.
 */
export function sentenceColumns(columns: Column[], u: Understanding, indexes: ViewIndex[]): Column[] {
  const index = indexes.find((i) => i.source.name === u.view);
  if (!index) return columns;
  const extra = [...u.measures, ...u.dimensions]
    .filter((k) => !columns.some((c) => c.key === k))
    .map((k) => index.members.find((m) => m.name === k))
    .filter((m): m is MetaMember => m !== undefined)
    .map((m) => ({ key: m.name, title: m.shortTitle, ...(m.format ? { format: m.format } : {}) }));
  return extra.length ? [...columns, ...extra] : columns;
}
