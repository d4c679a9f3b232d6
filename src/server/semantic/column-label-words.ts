/**
 * The words of worked-out columns' labels in each UI locale's language (column-labels.ts uses
 * them): quarters, parts of time, earlier and later periods, changes, shares, running totals
 * and ranks. English is the engine's own (compiler/annotation.ts).
 */
import type { TimePart } from "../../schema/semantic-query";
import { TIME_PART_TITLES } from "../../schema/time-part-labels";

/** The languages the labels are written in (those of the UI locales); any other locale reads them in English. */
export const LABEL_LANGUAGES = ["en", "de", "es", "fr", "it", "ja", "nb", "pt", "sv", "vi"] as const;
export type LabelLanguage = (typeof LABEL_LANGUAGES)[number];

/** A quarter's name in each language ("Q2 2025", "T2 2025", "2025年第2四半期"). */
export const QUARTER: Record<LabelLanguage, (q: number, year: number) => string> = {
  en: (q, year) => `Q${q} ${year}`,
  de: (q, year) => `Q${q} ${year}`,
  es: (q, year) => `T${q} ${year}`,
  fr: (q, year) => `T${q} ${year}`,
  it: (q, year) => `T${q} ${year}`,
  ja: (q, year) => `${year}年第${q}四半期`,
  nb: (q, year) => `K${q} ${year}`,
  pt: (q, year) => `T${q} ${year}`,
  sv: (q, year) => `K${q} ${year}`,
  vi: (q, year) => `Quý ${q} ${year}`,
};

/** Parts of time by name ("grouped by day of week", "Order Date (day of week)"). */
export const TIME_PART_NAMES: Record<LabelLanguage, Record<TimePart, string>> = {
  en: TIME_PART_TITLES,
  de: {
    dayOfWeek: "Wochentag",
    hourOfDay: "Tageszeit",
    dayOfMonth: "Tag des Monats",
    weekOfYear: "Kalenderwoche",
    monthOfYear: "Monat des Jahres",
    quarterOfYear: "Quartal des Jahres",
  },
  es: {
    dayOfWeek: "día de la semana",
    hourOfDay: "hora del día",
    dayOfMonth: "día del mes",
    weekOfYear: "semana del año",
    monthOfYear: "mes del año",
    quarterOfYear: "trimestre del año",
  },
  fr: {
    dayOfWeek: "jour de la semaine",
    hourOfDay: "heure de la journée",
    dayOfMonth: "jour du mois",
    weekOfYear: "semaine de l'année",
    monthOfYear: "mois de l'année",
    quarterOfYear: "trimestre de l'année",
  },
  it: {
    dayOfWeek: "giorno della settimana",
    hourOfDay: "ora del giorno",
    dayOfMonth: "giorno del mese",
    weekOfYear: "settimana dell'anno",
    monthOfYear: "mese dell'anno",
    quarterOfYear: "trimestre dell'anno",
  },
  ja: { dayOfWeek: "曜日", hourOfDay: "時間帯", dayOfMonth: "日にち", weekOfYear: "週番号", monthOfYear: "月", quarterOfYear: "四半期" },
  nb: {
    dayOfWeek: "ukedag",
    hourOfDay: "time på døgnet",
    dayOfMonth: "dag i måneden",
    weekOfYear: "ukenummer",
    monthOfYear: "måned i året",
    quarterOfYear: "kvartal i året",
  },
  pt: {
    dayOfWeek: "dia da semana",
    hourOfDay: "hora do dia",
    dayOfMonth: "dia do mês",
    weekOfYear: "semana do ano",
    monthOfYear: "mês do ano",
    quarterOfYear: "trimestre do ano",
  },
  sv: {
    dayOfWeek: "veckodag",
    hourOfDay: "timme på dygnet",
    dayOfMonth: "dag i månaden",
    weekOfYear: "veckonummer",
    monthOfYear: "månad på året",
    quarterOfYear: "kvartal på året",
  },
  vi: {
    dayOfWeek: "ngày trong tuần",
    hourOfDay: "giờ trong ngày",
    dayOfMonth: "ngày trong tháng",
    weekOfYear: "tuần trong năm",
    monthOfYear: "tháng trong năm",
    quarterOfYear: "quý trong năm",
  },
};

export type Rewrite = [RegExp, string | ((...groups: string[]) => string)];
export type Unit = "day" | "week" | "month" | "quarter" | "year";
export type Translated = Exclude<LabelLanguage, "en">;

/** "3 months earlier" and "1 year later" in each language: the count, its unit's word (singular, plural) and the word for before or after. */
export const SHIFTS: Record<Translated, { units: Record<Unit, [string, string]>; earlier: string; later: string; joined?: boolean }> = {
  de: {
    units: { day: ["Tag", "Tage"], week: ["Woche", "Wochen"], month: ["Monat", "Monate"], quarter: ["Quartal", "Quartale"], year: ["Jahr", "Jahre"] },
    earlier: "davor",
    later: "danach",
  },
  es: {
    units: { day: ["día", "días"], week: ["semana", "semanas"], month: ["mes", "meses"], quarter: ["trimestre", "trimestres"], year: ["año", "años"] },
    earlier: "antes",
    later: "después",
  },
  fr: {
    units: { day: ["jour", "jours"], week: ["semaine", "semaines"], month: ["mois", "mois"], quarter: ["trimestre", "trimestres"], year: ["an", "ans"] },
    earlier: "plus tôt",
    later: "plus tard",
  },
  it: {
    units: {
      day: ["giorno", "giorni"],
      week: ["settimana", "settimane"],
      month: ["mese", "mesi"],
      quarter: ["trimestre", "trimestri"],
      year: ["anno", "anni"],
    },
    earlier: "prima",
    later: "dopo",
  },
  ja: {
    units: { day: ["日", "日"], week: ["週間", "週間"], month: ["か月", "か月"], quarter: ["四半期", "四半期"], year: ["年", "年"] },
    earlier: "前",
    later: "後",
    joined: true,
  },
  nb: {
    units: { day: ["dag", "dager"], week: ["uke", "uker"], month: ["måned", "måneder"], quarter: ["kvartal", "kvartaler"], year: ["år", "år"] },
    earlier: "tidligere",
    later: "senere",
  },
  pt: {
    units: { day: ["dia", "dias"], week: ["semana", "semanas"], month: ["mês", "meses"], quarter: ["trimestre", "trimestres"], year: ["ano", "anos"] },
    earlier: "antes",
    later: "depois",
  },
  sv: {
    units: { day: ["dag", "dagar"], week: ["vecka", "veckor"], month: ["månad", "månader"], quarter: ["kvartal", "kvartal"], year: ["år", "år"] },
    earlier: "tidigare",
    later: "senare",
  },
  vi: {
    units: { day: ["ngày", "ngày"], week: ["tuần", "tuần"], month: ["tháng", "tháng"], quarter: ["quý", "quý"], year: ["năm", "năm"] },
    earlier: "trước",
    later: "sau",
  },
};

/** The rest of the engine's words (a change, a share, a running total, a rank), most specific first. */
export const WORDS: Record<Translated, Rewrite[]> = {
  de: [
    [/^% change vs /, "Veränderung in % gegenüber "],
    [/^change vs /, "Veränderung gegenüber "],
    [/^% change$/, "Veränderung in %"],
    [/^change$/, "Veränderung"],
    [/^% of total\b/, "Anteil an der Summe"],
    [/^running total\b/, "laufende Summe"],
    [/^rank\b/, "Rang"],
    [/ within /, " innerhalb "],
  ],
  es: [
    [/^% change vs /, "variación en % frente a "],
    [/^change vs /, "variación frente a "],
    [/^% change$/, "variación en %"],
    [/^change$/, "variación"],
    [/^% of total\b/, "parte del total"],
    [/^running total\b/, "total acumulado"],
    [/^rank\b/, "puesto"],
    [/ within /, " dentro de "],
  ],
  fr: [
    [/^% change vs /, "variation en % par rapport à "],
    [/^change vs /, "variation par rapport à "],
    [/^% change$/, "variation en %"],
    [/^change$/, "variation"],
    [/^% of total\b/, "part du total"],
    [/^running total\b/, "cumul"],
    [/^rank\b/, "rang"],
    [/ within /, " dans "],
  ],
  it: [
    [/^% change vs /, "variazione % rispetto a "],
    [/^change vs /, "variazione rispetto a "],
    [/^% change$/, "variazione %"],
    [/^change$/, "variazione"],
    [/^% of total\b/, "quota del totale"],
    [/^running total\b/, "totale progressivo"],
    [/^rank\b/, "posizione"],
    [/ within /, " all'interno di "],
  ],
  ja: [
    [/^% change vs (.+)$/, (_, than) => `${than}比の変化率`],
    [/^change vs (.+)$/, (_, than) => `${than}比の変化`],
    [/^% change$/, "変化率"],
    [/^change$/, "変化"],
    [/^% of total within (.+)$/, (_, group) => `${group}内の構成比`],
    [/^% of total\b/, "構成比"],
    [/^running total within (.+)$/, (_, group) => `${group}内の累計`],
    [/^running total\b/, "累計"],
    [/^rank within (.+)$/, (_, group) => `${group}内の順位`],
    [/^rank\b/, "順位"],
  ],
  nb: [
    [/^% change vs /, "endring i % mot "],
    [/^change vs /, "endring mot "],
    [/^% change$/, "endring i %"],
    [/^change$/, "endring"],
    [/^% of total\b/, "andel av totalen"],
    [/^running total\b/, "løpende sum"],
    [/^rank\b/, "rangering"],
    [/ within /, " innenfor "],
  ],
  pt: [
    [/^% change vs /, "variação % em relação a "],
    [/^change vs /, "variação em relação a "],
    [/^% change$/, "variação %"],
    [/^change$/, "variação"],
    [/^% of total\b/, "participação no total"],
    [/^running total\b/, "total acumulado"],
    [/^rank\b/, "posição"],
    [/ within /, " dentro de "],
  ],
  sv: [
    [/^% change vs /, "förändring i % mot "],
    [/^change vs /, "förändring mot "],
    [/^% change$/, "förändring i %"],
    [/^change$/, "förändring"],
    [/^% of total\b/, "andel av totalen"],
    [/^running total\b/, "löpande summa"],
    [/^rank\b/, "placering"],
    [/ within /, " inom "],
  ],
  vi: [
    [/^% change vs /, "% thay đổi so với "],
    [/^change vs /, "thay đổi so với "],
    [/^% change$/, "% thay đổi"],
    [/^change$/, "thay đổi"],
    [/^% of total\b/, "% trên tổng"],
    [/^running total\b/, "tổng lũy kế"],
    [/^rank\b/, "thứ hạng"],
    [/ within /, " trong "],
  ],
};
