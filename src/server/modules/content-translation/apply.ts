import { isCanonicalLocale, type ContentDictionary } from "../../../schema/content-translation";
import type { Dashboard } from "../../../schema/dashboard";
import type { Db } from "../../db/connection";
import type { Principal } from "../../domain/actor";
import { pickDictionary, viewerDictionaries } from "./store";
import { textOf, translateDashboard } from "./translate-dashboard";
import type { DataModel } from "../../semantic";
import { codeDisplayOfMember, labelValues, translateResult, type TranslatableResult } from "./translate-result";

/**
 * The locale content is shown in: the one the request names (the embed sends the locale it
 * shows), else the embed session's `settings.locale`, else none (source text). A tag that is not
 * a valid locale counts as none.
 */
export function contentLocaleOf(principal: Principal, requested: string | null | undefined): string | null {
  const sessionLocale = principal.kind === "embed" ? principal.settings.locale : undefined;
  for (const candidate of [requested, sessionLocale]) {
    if (typeof candidate !== "string" || !candidate) continue;
    try {
      return Intl.getCanonicalLocales(candidate.replace(/_/g, "-"))[0] ?? null;
    } catch {
      continue;
    }
  }
  return null;
}

/** A published dashboard in the viewer's locale (docs/translation.md). */
export async function dashboardInLocale(db: Db, dashboard: Dashboard, locale: string | null): Promise<Dashboard> {
  if (!locale) return dashboard;
  return translateDashboard(dashboard, pickDictionary(await viewerDictionaries(db, dashboard.deploymentId), locale));
}

/** A source text in a locale (the dictionary's `texts` entry), else the source itself. */
export async function textTranslator(db: Db, deploymentId: number, locale: string | null): Promise<(source: string) => string> {
  if (!locale || !isCanonicalLocale(locale)) return (source) => source;
  const dictionary = pickDictionary(await viewerDictionaries(db, deploymentId), locale);
  return dictionary ? textOf(dictionary) : (source) => source;
}

/** Translates query results for a locale: the deployment's dictionaries are read once for all of them. */
export async function resultTranslator(db: Db, deploymentId: number, locale: string | null) {
  if (!locale || !isCanonicalLocale(locale)) return <T extends TranslatableResult>(result: T) => result;
  const dictionary = pickDictionary(await viewerDictionaries(db, deploymentId), locale);
  return <T extends TranslatableResult>(result: T) => translateResult(result, dictionary, locale);
}

/** Labels of a filter picker's values in a locale (none without a locale or labels). */
export async function distinctValueLabels(db: Db, deploymentId: number, locale: string | null, model: DataModel, member: string, values: readonly unknown[]) {
  if (!locale || !isCanonicalLocale(locale)) return null;
  const dictionary = pickDictionary(await viewerDictionaries(db, deploymentId), locale);
  return labelValues(values, member, dictionary, locale, codeDisplayOfMember(model, member));
}

/**
 * A dimension value's text in a locale, for sentences (the builtin chat engine): the dictionary's
 * `values` entry, else a country or language code's name (`meta.display`); undefined: none.
 */
export async function valueLabeler(
  db: Db,
  deploymentId: number,
  locale: string | null,
  model: DataModel,
): Promise<((member: string, value: unknown) => string | undefined) | undefined> {
  if (!locale || !isCanonicalLocale(locale)) return undefined;
  const dictionary = pickDictionary(await viewerDictionaries(db, deploymentId), locale);
  return (member, value) =>
    typeof value === "string" ? labelValues([value], member, dictionary, locale, codeDisplayOfMember(model, member))?.[value] : undefined;
}

/**
 * Views and members of `GET …/meta` in a locale: titled by its dictionary's `members` and
 * `texts`, their descriptions by its `texts` (names, types and everything else unchanged); as
 * they are without a dictionary for the locale.
 */
export async function metaInLocale<
  S extends { name: string; title: string; description?: string; measures: M[]; dimensions: M[] },
  M extends { name: string; title: string; shortTitle: string; description?: string },
>(db: Db, deploymentId: number, locale: string | null, sources: S[]): Promise<S[]> {
  if (!locale || !isCanonicalLocale(locale)) return sources;
  const dictionary = pickDictionary(await viewerDictionaries(db, deploymentId), locale);
  if (!dictionary) return sources;
  const title = titlerOf(dictionary);
  const text = textOf(dictionary);
  const described = <T extends { description?: string }>(x: T): T => (x.description ? { ...x, description: text(x.description) } : x);
  const member = (m: M): M => described({ ...m, title: title(m.name, m.title), shortTitle: title(m.name, m.shortTitle) });
  return sources.map((s) => described({ ...s, title: title(s.name, s.title), measures: s.measures.map(member), dimensions: s.dimensions.map(member) }));
}

/** A member's title by a dictionary: its entry for the member, else for the title, else the title. */
function titlerOf(dictionary: ContentDictionary): (member: string, title: string) => string {
  const members = dictionary.members ?? {};
  const texts = dictionary.texts ?? {};
  return (member, title) => (Object.hasOwn(members, member) ? members[member]! : Object.hasOwn(texts, title) ? texts[title]! : title);
}

/** A member's title in a locale: the dictionary's entry for the member, else for its title, else the title. */
export async function memberTitler(db: Db, deploymentId: number, locale: string | null): Promise<((member: string, title: string) => string) | undefined> {
  if (!locale || !isCanonicalLocale(locale)) return undefined;
  const dictionary = pickDictionary(await viewerDictionaries(db, deploymentId), locale);
  return dictionary ? titlerOf(dictionary) : undefined;
}
