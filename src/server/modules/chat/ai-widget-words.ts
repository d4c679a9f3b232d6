/**
 * The AI widget's own words in the builtin engine's languages: one line per report, and the
 * filters the summary was written for. The rest (the prompt's answer) comes from the builtin
 * engine in the same language.
 */
import type { Language } from "../../ai/builtin-language";

export interface WidgetWords {
  leads: (title: string, who: string, value: string, then: string) => string;
  figure: (title: string, value: string) => string;
  figureOn: (title: string, value: string, day: string) => string;
  trend: (title: string, latest: string, latestDay: string, highest: string, highestDay: string) => string;
  /** "Country: United States · Status: completed" → the line naming the filters. */
  filteredFor: (list: string) => string;
}

export const WIDGET_WORDS: Record<Language, WidgetWords> = {
  en: {
    leads: (title, who, value, then) => `- **${title}**: ${who} leads with ${value}${then ? `, then ${then}` : ""}`,
    figure: (title, value) => `- **${title}**: ${value}`,
    figureOn: (title, value, day) => `- **${title}**: ${value} (${day})`,
    trend: (title, latest, latestDay, highest, highestDay) => `- **${title}**: latest ${latest} (${latestDay}), highest ${highest} (${highestDay})`,
    filteredFor: (list) => `_For ${list}._`,
  },
  de: {
    leads: (title, who, value, then) => `- **${title}**: ${who} führt mit ${value}${then ? `, danach ${then}` : ""}`,
    figure: (title, value) => `- **${title}**: ${value}`,
    figureOn: (title, value, day) => `- **${title}**: ${value} (${day})`,
    trend: (title, latest, latestDay, highest, highestDay) => `- **${title}**: zuletzt ${latest} (${latestDay}), am höchsten ${highest} (${highestDay})`,
    filteredFor: (list) => `_Für ${list}._`,
  },
  es: {
    leads: (title, who, value, then) => `- **${title}**: ${who} encabeza con ${value}${then ? `; después, ${then}` : ""}`,
    figure: (title, value) => `- **${title}**: ${value}`,
    figureOn: (title, value, day) => `- **${title}**: ${value} (${day})`,
    trend: (title, latest, latestDay, highest, highestDay) => `- **${title}**: último ${latest} (${latestDay}), máximo ${highest} (${highestDay})`,
    filteredFor: (list) => `_Para ${list}._`,
  },
};

/** The builtin engine's language of a locale ("de-AT" → de), English otherwise. */
export function widgetLanguage(locale: string): Language {
  const two = locale.slice(0, 2).toLowerCase();
  return two === "de" || two === "es" ? two : "en";
}
