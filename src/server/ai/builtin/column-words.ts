/**
 * The headings of an answer's worked-out columns in German and Spanish: the query engine titles a
 * share, a running total, a rank, two periods side by side and a period comparison in English
 * ("Revenue (% of total)", "Revenue (change vs 1 month earlier)"), and content translation says
 * the label in the viewer's language (semantic/column-labels.ts); the answer also names the
 * measure by its title in the answer's language where the deployment's dictionary has none.
 */
import { localLabel } from "../../semantic/column-labels";
import type { Language } from "../builtin-language";
import type { ToolOutcome, ToolState } from "../tools";
import type { ViewIndex } from "./view-index";

/** A worked-out column's heading in `lang`, given its measure's title there and in the model; undefined: not one the engine wrote. */
export function columnTitle(lang: Language, title: string, modelTitle: string, shownTitle: string): string | undefined {
  if (lang === "en" || !title.startsWith(`${modelTitle} (`) || !title.endsWith(")")) return undefined;
  return `${shownTitle} (${localLabel(lang, title.slice(modelTitle.length + 2, -1))})`;
}

/**
 * The query's table and the columns the chart and the sentences read, with each worked-out
 * column of a view's measure headed in the answer's language (`shown`: the view as the answer
 * names its members, `model`: as the model does). English answers are left as they are.
 */
export function localColumns(lang: Language, outcome: ToolOutcome, state: ToolState, shown: ViewIndex, model: ViewIndex): ToolOutcome {
  if (lang === "en" || !state.lastColumns) return outcome;
  const retitle = <C extends { key: string; title: string }>(c: C): C => {
    const member = model.source.measures.find((m) => c.key.startsWith(`${m.name}.`) || c.key.startsWith(`${m.name}_`));
    const own = member && shown.members.find((m) => m.name === member.name);
    const title = member && own ? columnTitle(lang, c.title, member.shortTitle, own.shortTitle) : undefined;
    return title ? { ...c, title } : c;
  };
  state.lastColumns = state.lastColumns.map(retitle);
  return { ...outcome, parts: outcome.parts.map((p) => (p.type === "table" ? { ...p, columns: p.columns.map(retitle) } : p)) };
}
