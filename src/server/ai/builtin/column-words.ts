/**
 * The headings of an answer's worked-out columns in German and Spanish: the query engine titles a
 * share, a running total, a rank, two periods side by side and a period comparison in English
 * ("Revenue (% of total)", "Revenue (change vs 1 month earlier)"); the answer names the measure by
 * its title in the answer's language and says the rest in that language too.
 */
import type { Language } from "../builtin-language";
import type { ToolOutcome, ToolState } from "../tools";
import type { ViewIndex } from "./view-index";

type Rewrite = [RegExp, string | ((...groups: string[]) => string)];

const UNITS: Record<"de" | "es", Record<string, [string, string]>> = {
  de: { day: ["Tag", "Tage"], week: ["Woche", "Wochen"], month: ["Monat", "Monate"], quarter: ["Quartal", "Quartale"], year: ["Jahr", "Jahre"] },
  es: { day: ["día", "días"], week: ["semana", "semanas"], month: ["mes", "meses"], quarter: ["trimestre", "trimestres"], year: ["año", "años"] },
};
const units = (lang: "de" | "es", n: string, unit: string) => `${n} ${UNITS[lang][unit]![n === "1" ? 0 : 1]}`;

/** The engine's English labels (inside the parentheses), most specific first. */
const LABELS: Record<"de" | "es", Rewrite[]> = {
  de: [
    [/\b(\d+) (day|week|month|quarter|year)s? earlier\b/g, (_, n, u) => `${units("de", n!, u!)} davor`],
    [/\b(\d+) (day|week|month|quarter|year)s? later\b/g, (_, n, u) => `${units("de", n!, u!)} danach`],
    [/^% change vs /, "Veränderung in % gegenüber "],
    [/^change vs /, "Veränderung gegenüber "],
    [/^% change$/, "Veränderung in %"],
    [/^change$/, "Veränderung"],
    [/^baseline\b/, "Vergleichszeitraum"],
    [/^current\b/, "Zeitraum"],
    [/^% of total\b/, "Anteil an der Summe"],
    [/^running total\b/, "laufende Summe"],
    [/^rank\b/, "Rang"],
    [/ within /, " innerhalb "],
  ],
  es: [
    [/\b(\d+) (day|week|month|quarter|year)s? earlier\b/g, (_, n, u) => `${units("es", n!, u!)} antes`],
    [/\b(\d+) (day|week|month|quarter|year)s? later\b/g, (_, n, u) => `${units("es", n!, u!)} después`],
    [/^% change vs /, "variación en % frente a "],
    [/^change vs /, "variación frente a "],
    [/^% change$/, "variación en %"],
    [/^change$/, "variación"],
    [/^baseline\b/, "periodo de referencia"],
    [/^current\b/, "periodo actual"],
    [/^% of total\b/, "parte del total"],
    [/^running total\b/, "total acumulado"],
    [/^rank\b/, "puesto"],
    [/ within /, " dentro de "],
  ],
};

/** A worked-out column's heading in `lang`, given its measure's title there and in the model; undefined: not one the engine wrote. */
export function columnTitle(lang: Language, title: string, modelTitle: string, shownTitle: string): string | undefined {
  if (lang === "en" || !title.startsWith(`${modelTitle} (`) || !title.endsWith(")")) return undefined;
  let label = title.slice(modelTitle.length + 2, -1);
  for (const [re, to] of LABELS[lang]) label = typeof to === "string" ? label.replace(re, to) : label.replace(re, to as (...g: string[]) => string);
  return `${shownTitle} (${label})`;
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
