import type { ContentDictionary } from "../../../schema/content-translation";
import type { Dashboard, DashboardWidget, ReportSnapshot } from "../../../schema/dashboard";

/**
 * A dashboard as a viewer of a locale sees it: its title and description, each widget's label
 * and tab titles, a TEXT widget's markdown, and each report's title, description and chart titles translated by the
 * dictionary (docs/translation.md). What the dictionary lacks keeps its source text. Ids,
 * members, queries and every value a filter uses stay as they are.
 */
export function translateDashboard(dashboard: Dashboard, dictionary: ContentDictionary | null): Dashboard {
  if (!dictionary) return dashboard;
  const text = textOf(dictionary);
  const config = dashboard.config;
  return {
    ...dashboard,
    title: text(dashboard.title),
    description: text(dashboard.description),
    config: {
      ...config,
      title: text(config.title),
      description: text(config.description),
      ...(config.widgets ? { widgets: config.widgets.map((w) => translateWidget(w, text)) } : {}),
    },
    reportSnapshots: dashboard.reportSnapshots.map((s) => translateSnapshot(s, dictionary)),
  };
}

type Text = <T extends string | null | undefined>(source: T) => T;

/** The `texts` lookup: the translation of a source text, else the source itself. */
export function textOf(dictionary: ContentDictionary): Text {
  const texts = dictionary.texts ?? {};
  return ((source: string | null | undefined) => (typeof source === "string" && Object.hasOwn(texts, source) ? texts[source]! : source)) as Text;
}

/**
 * Markdown whose HTML shows as written: `<` and `&` become entities, so a translation can bold,
 * link and list but never bring a tag (the TEXT widget's sanitiser would keep some) or an entity.
 */
export function markdownWithoutHtml(markdown: string): string {
  return markdown.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

/**
 * Widget config keys whose value is text shown to the viewer (an AI widget's `question` or
 * `prompt` too: the viewer reads it above the answer, and the answer is written for it in the
 * viewer's language).
 */
export const WIDGET_TEXT_KEYS = ["label", "title", "subtitle", "description", "placeholder", "question", "prompt"] as const;

function translateWidget(widget: DashboardWidget, text: Text): DashboardWidget {
  const config = widget.config;
  if (!config) return widget;
  const next: Record<string, unknown> = { ...config };
  for (const key of WIDGET_TEXT_KEYS) if (typeof config[key] === "string") next[key] = text(config[key]);
  // A TEXT widget's markdown is a `texts` key as a whole; its translation is markdown without HTML.
  if (widget.type === "TEXT" && typeof config.markdown === "string") {
    const translated = text(config.markdown);
    if (translated !== config.markdown) next.markdown = markdownWithoutHtml(translated);
  }
  if (widget.type === "TABS_CONTAINER" && Array.isArray(config.tabs)) {
    next.tabs = config.tabs.map((tab: unknown) => {
      if (!tab || typeof tab !== "object") return tab;
      const t = tab as { title?: unknown; widgets?: unknown };
      return {
        ...t,
        ...(typeof t.title === "string" ? { title: text(t.title) } : {}),
        ...(Array.isArray(t.widgets) ? { widgets: (t.widgets as DashboardWidget[]).map((w) => translateWidget(w, text)) } : {}),
      };
    });
  }
  return { ...widget, config: next };
}

function translateSnapshot(snapshot: ReportSnapshot, dictionary: ContentDictionary): ReportSnapshot {
  const text = textOf(dictionary);
  return {
    ...snapshot,
    title: text(snapshot.title),
    description: text(snapshot.description),
    ...(snapshot.spec && typeof snapshot.spec === "object" ? { spec: translateSpec(snapshot.spec, dictionary) } : {}),
  };
}

type Json = Record<string, unknown>;

/**
 * The titles of a chart spec's encodings (axes, legends, tooltips), in the spec and its layers:
 * a channel bound to a member takes the member's translation, else the title's in `texts`.
 */
export function translateSpec(spec: Json, dictionary: ContentDictionary): Json {
  const text = textOf(dictionary);
  const members = dictionary.members ?? {};
  const channel = (c: unknown): unknown => {
    if (!c || typeof c !== "object" || Array.isArray(c)) return c;
    const enc = c as Json;
    if (typeof enc.title !== "string") return enc;
    const member = typeof enc.field === "string" && Object.hasOwn(members, enc.field) ? members[enc.field] : undefined;
    return { ...enc, title: member ?? text(enc.title) };
  };
  const out: Json = { ...spec };
  if (typeof spec.title === "string") out.title = text(spec.title);
  if (spec.encoding && typeof spec.encoding === "object") {
    out.encoding = Object.fromEntries(Object.entries(spec.encoding as Json).map(([k, v]) => [k, Array.isArray(v) ? v.map(channel) : channel(v)]));
  }
  if (Array.isArray(spec.layer)) out.layer = spec.layer.map((l: unknown) => (l && typeof l === "object" ? translateSpec(l as Json, dictionary) : l));
  return out;
}
