/**
 * The AI widget's summary lines in the viewer's language: a report's figure, its leader or its
 * latest and highest point, and the filters the summary was written for, with texts, member
 * titles and values as the deployment's dictionaries have them (docs/translation.md).
 */
import type { AppDeps } from "../../context";
import type { ToolState } from "../../ai/tools";
import type { DataModel } from "../../semantic";
import type { QueryFilter } from "../../../schema/semantic-query";
import { pickDictionary, viewerDictionaries } from "../content-translation/store";
import { codeDisplayOfMember, labelValues } from "../content-translation/translate-result";
import { formatPeriod } from "../../ai/builtin/format";
import { granularities, type Granularity } from "../../../schema/semantic-query";
import { WIDGET_WORDS, widgetLanguage, type WidgetWords } from "./ai-widget-words";

function formatNumber(locale: string, value: unknown, format?: string): string {
  const n = Number(value);
  if (value === null || value === undefined || !Number.isFinite(n)) return String(value ?? "–");
  if (format === "currency") return new Intl.NumberFormat(locale, { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(n);
  if (format === "percent") return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(n);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(n);
}

/** How a summary shows content in the viewer's language: texts, dimension values' labels and days. */
export interface WidgetLocalizer {
  locale: string;
  words: WidgetWords;
  /** A dashboard text (a report's title) as the deployment's dictionary has it. */
  text: (source: string) => string;
  /** Labels of a dimension's values (translations, country names), by the raw value. */
  labels: (member: string, values: readonly unknown[]) => Record<string, string> | null;
}

/** The source text and raw values as they are, in English words. */
export const PLAIN_LOCALIZER: WidgetLocalizer = { locale: "en", words: WIDGET_WORDS.en, text: (s) => s, labels: () => null };

/** One line about one widget's rows: its figure, its leader, or its latest and highest point. */
export function highlight(title: string, state: ToolState, localizer: WidgetLocalizer): string | null {
  const { locale, words } = localizer;
  const rows = state.lastRows ?? [];
  const columns = state.lastColumns ?? [];
  const measures = state.lastQuery?.measures ?? [];
  const measure = columns.find((c) => measures.includes(c.key));
  if (!measure || rows.length === 0) return null;
  const dims = columns.filter((c) => !measures.includes(c.key));
  const fmt = (v: unknown) => formatNumber(locale, v, measure.format);
  if (dims.length === 0) return words.figure(title, fmt(rows[0]![measure.key]));
  const time = dims.find((d) => d.type === "time");
  // A period at its grain ("Q2 2025", "Juni 2025", "2025"), as the chat's sentences name it; a day otherwise.
  const grain = time?.key.split(".").pop();
  const day = (v: unknown) => (isGranularity(grain) ? formatPeriod(widgetLanguage(locale), v, grain) : dayOf(locale, v));
  if (time && dims.length === 1) {
    const sorted = [...rows].sort((a, b) => String(a[time.key]).localeCompare(String(b[time.key])));
    const latest = sorted[sorted.length - 1]!;
    const peak = [...rows].sort((a, b) => Number(b[measure.key]) - Number(a[measure.key]))[0]!;
    if (rows.length === 1) return words.figureOn(title, fmt(latest[measure.key]), day(latest[time.key]));
    return words.trend(title, fmt(latest[measure.key]), day(latest[time.key]), fmt(peak[measure.key]), day(peak[time.key]));
  }
  const labelled = new Map(
    dims
      .filter((d) => d.type !== "time")
      .map((d) => [
        d.key,
        localizer.labels(
          d.key,
          rows.map((r) => r[d.key]),
        ) ?? {},
      ]),
  );
  const label = (r: Record<string, unknown>) =>
    dims.map((d) => (d.type === "time" ? day(r[d.key]) : (labelled.get(d.key)?.[String(r[d.key])] ?? String(r[d.key] ?? "–")))).join(" · ");
  const sorted = [...rows].sort((a, b) => Number(b[measure.key]) - Number(a[measure.key]));
  const then = sorted
    .slice(1, 3)
    .map((r) => `${label(r)} (${fmt(r[measure.key])})`)
    .join(", ");
  return words.leads(title, label(sorted[0]!), fmt(sorted[0]![measure.key]), then);
}

/** A day of a result ("2025-04-01T00:00:00.000") in the viewer's locale. */
function dayOf(locale: string, value: unknown): string {
  const text = String(value ?? "–");
  const at = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return text.slice(0, 10);
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(at);
  } catch {
    return text.slice(0, 10);
  }
}

/** The line naming the filters a summary was written for: "For Country: United States · Status: completed." */
export function filtersLine(filters: readonly QueryFilter[], titleOf: (member: string) => string, localizer: WidgetLocalizer): string | null {
  const parts = filters.flatMap((f) => {
    // Dashboard filters are member filters; a group of alternatives is not named here.
    if (!("member" in f)) return [];
    const values = (f.values ?? []).map(String);
    if (!values.length) return [];
    const labels = localizer.labels(f.member, values) ?? {};
    const shown = values.map((v) => labels[v] ?? v).join(", ");
    return [`${titleOf(f.member)}: ${f.operator === "notEquals" || f.operator === "notIn" ? `≠ ${shown}` : shown}`];
  });
  return parts.length ? localizer.words.filteredFor(parts.join(" · ")) : null;
}

/** The viewer's locale with the deployment's dictionary for it (docs/translation.md). */
export async function widgetLocalizer(
  deps: AppDeps,
  deploymentId: number,
  model: DataModel,
  locale: string,
): Promise<WidgetLocalizer & { member: (name: string) => string | undefined }> {
  const dictionary = pickDictionary(await viewerDictionaries(deps.db, deploymentId), locale);
  const texts = dictionary?.texts ?? {};
  const members = dictionary?.members ?? {};
  return {
    locale,
    words: WIDGET_WORDS[widgetLanguage(locale)],
    text: (source) => (Object.hasOwn(texts, source) ? texts[source]! : source),
    member: (name) => (Object.hasOwn(members, name) ? members[name] : undefined),
    labels: (member, values) => labelValues(values, member, dictionary, locale, codeDisplayOfMember(model, member)),
  };
}

const isGranularity = (value: string | undefined): value is Granularity => (granularities as readonly string[]).includes(value ?? "");
