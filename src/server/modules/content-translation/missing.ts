import type { ContentDictionary, MissingTranslation, MissingTranslationReport } from "../../../schema/content-translation";
import type { DashboardConfig, DashboardWidget } from "../../../schema/dashboard";
import type { DataModel } from "../../semantic";
import { WIDGET_TEXT_KEYS } from "./translate-dashboard";

/** A dashboard as the missing report reads it: its config and its reports' texts. */
export interface DashboardContent {
  /** How the report names it: the workbook's slug, else the dashboard's public id. */
  key: string;
  config: DashboardConfig;
  reports: { name?: string | null; title?: string | null; description?: string | null; spec?: unknown }[];
}

/** Every piece of a deployment's content that wants a translation, in a stable order. */
export interface ContentSources {
  texts: Map<string, Set<string>>;
  members: Map<string, { title: string; where: Set<string> }>;
}

const add = (map: Map<string, Set<string>>, source: unknown, where: string) => {
  if (typeof source !== "string" || !source.trim()) return;
  let at = map.get(source);
  if (!at) map.set(source, (at = new Set()));
  at.add(where);
};

function widgetTexts(widgets: readonly DashboardWidget[] | null | undefined, texts: Map<string, Set<string>>, where: string) {
  for (const w of widgets ?? []) {
    const c = (w.config ?? {}) as Record<string, unknown>;
    for (const key of WIDGET_TEXT_KEYS) add(texts, c[key], where);
    if (w.type === "TEXT") add(texts, c.markdown, where);
    if (w.type === "TABS_CONTAINER" && Array.isArray(c.tabs))
      for (const tab of c.tabs as { title?: unknown; widgets?: DashboardWidget[] }[]) {
        add(texts, tab?.title, where);
        widgetTexts(tab?.widgets, texts, where);
      }
  }
}

/** Titles of a chart spec's encodings whose member has no `members` entry; those with one are the member's. */
function specTexts(spec: unknown, texts: Map<string, Set<string>>, where: string, memberTitled: (member: string) => boolean) {
  if (!spec || typeof spec !== "object") return;
  const s = spec as { title?: unknown; encoding?: Record<string, unknown>; layer?: unknown[] };
  add(texts, s.title, where);
  for (const value of Object.values(s.encoding ?? {}))
    for (const c of Array.isArray(value) ? value : [value]) {
      const enc = (c ?? {}) as { title?: unknown; field?: unknown };
      if (typeof enc.field === "string" && memberTitled(enc.field)) continue;
      add(texts, enc.title, where);
    }
  for (const layer of s.layer ?? []) specTexts(layer, texts, where, memberTitled);
}

/** The texts of published dashboards, the titles of the model's public views and of its public members (of views and of public cubes). */
export function contentSources(dashboards: DashboardContent[], model: DataModel | null, dictionary: ContentDictionary | null): ContentSources {
  const texts = new Map<string, Set<string>>();
  const memberTitled = (member: string) => Object.hasOwn(dictionary?.members ?? {}, member);
  for (const d of dashboards) {
    const where = `dashboard:${d.key}`;
    add(texts, d.config.title, where);
    add(texts, d.config.description, where);
    widgetTexts(d.config.widgets, texts, where);
    for (const r of d.reports) {
      const at = `report:${r.name ?? d.key}`;
      add(texts, r.title, at);
      add(texts, r.description, at);
      specTexts(r.spec, texts, at, memberTitled);
    }
  }
  const members = new Map<string, { title: string; where: Set<string> }>();
  for (const view of model?.views.values() ?? []) {
    if (!view.public) continue;
    // A view's title is named by answers ("It holds Sales (…)") and pickers: a text to translate.
    add(texts, view.title, "model");
    for (const m of view.members.values()) members.set(`${view.name}.${m.name}`, { title: m.shortTitle, where: new Set(["model"]) });
  }
  for (const cube of model?.cubes.values() ?? []) {
    if (!cube.public) continue;
    for (const m of [...cube.dimensions.values(), ...cube.measures.values()])
      members.set(`${cube.name}.${m.name}`, { title: m.title, where: new Set(["model"]) });
  }
  return { texts, members };
}

/**
 * What a locale's dictionary lacks: every source text, every public member's title (a `members`
 * entry or its title in `texts`), and every dimension value another locale's dictionary
 * translates. Values are never read from the data: the report names only the deployment's own
 * static content.
 */
export function missingReport(
  locale: string,
  sources: ContentSources,
  dictionary: ContentDictionary | null,
  others: Map<string, ContentDictionary>,
): MissingTranslationReport {
  const texts = dictionary?.texts ?? {};
  const members = dictionary?.members ?? {};
  const values = dictionary?.values ?? {};
  const missing: MissingTranslation[] = [];
  let total = 0;
  for (const [source, where] of [...sources.texts].sort(([a], [b]) => a.localeCompare(b))) {
    total++;
    if (!Object.hasOwn(texts, source)) missing.push({ kind: "text", source, where: [...where].sort() });
  }
  for (const [member, { title, where }] of [...sources.members].sort(([a], [b]) => a.localeCompare(b))) {
    total++;
    if (!Object.hasOwn(members, member) && !Object.hasOwn(texts, title)) missing.push({ kind: "member", source: title, member, where: [...where] });
  }
  const wanted = new Map<string, Map<string, Set<string>>>();
  for (const [other, d] of others) {
    if (other === locale) continue;
    for (const [member, byValue] of Object.entries(d.values ?? {}))
      for (const value of Object.keys(byValue)) {
        let m = wanted.get(member);
        if (!m) wanted.set(member, (m = new Map()));
        add(m, value, `dictionary:${other}`);
      }
  }
  for (const [member, byValue] of [...wanted].sort(([a], [b]) => a.localeCompare(b)))
    for (const [value, where] of [...byValue].sort(([a], [b]) => a.localeCompare(b))) {
      total++;
      if (!Object.hasOwn(values[member] ?? {}, value)) missing.push({ kind: "value", source: value, member, where: [...where].sort() });
    }
  return { locale, total, translated: total - missing.length, missing };
}
