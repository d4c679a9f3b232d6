/** Questions offered before the first one, from the views the viewer can query. */
interface Member {
  name: string;
  shortTitle?: string;
  title?: string;
  type?: string;
  format?: string;
  measureType?: string;
  primaryKey?: boolean;
}

/**
 * The three questions in the words of the viewer's language, for the languages the builtin
 * engine reads (its own, where the model titles members in it: "Umsatz nach Land im letzten
 * Quartal"); English in any other.
 */
const PHRASES: Record<
  "en" | "de" | "es",
  { byLastQuarter: (m: string, d: string) => string; topFive: (m: string, d: string) => string; overTime: (m: string, d: string) => string; lower: boolean }
> = {
  en: {
    byLastQuarter: (m, d) => `${m} by ${d} last quarter`,
    topFive: (m, d) => `${m} by ${d}, top 5`,
    overTime: (m, d) => `${m} by ${d} over time`,
    lower: true,
  },
  // German nouns keep their capital.
  de: {
    byLastQuarter: (m, d) => `${m} nach ${d} im letzten Quartal`,
    topFive: (m, d) => `${m} nach ${d}, Top 5`,
    overTime: (m, d) => `${m} nach ${d} im Zeitverlauf`,
    lower: false,
  },
  es: {
    byLastQuarter: (m, d) => `${m} por ${d} en el último trimestre`,
    topFive: (m, d) => `${m} por ${d}, top 5`,
    overTime: (m, d) => `${m} por ${d} a lo largo del tiempo`,
    lower: true,
  },
};

export function startersOf(sources: { kind?: string; measures?: Member[]; dimensions?: Member[] }[], locale = "en"): string[] {
  const language = locale.slice(0, 2).toLowerCase();
  const say = PHRASES[language === "de" || language === "es" ? language : "en"];
  const views = sources.some((s) => s.kind === "view") ? sources.filter((s) => s.kind === "view") : sources;
  const source = views.find((v) => (v.measures ?? []).length > 0);
  if (!source) return [];
  const name = (m: Member) => m.shortTitle ?? m.title ?? m.name.split(".").pop()!;
  const measures = source.measures ?? [];
  const money = measures.find((m) => m.format === "currency") ?? measures[0]!;
  const count = measures.find((m) => m.measureType === "count") ?? measures[0]!;
  const dims = (source.dimensions ?? []).filter((d) => d.type === "string" && !d.primaryKey && !/(^|_)name$/.test(d.name.split(".").pop()!));
  const hasTime = (source.dimensions ?? []).some((d) => d.type === "time");
  const out: string[] = [];
  const byCountry = dims.find((d) => /country/i.test(d.name)) ?? dims[0];
  const dim = (d: Member) => (say.lower ? name(d).toLowerCase() : name(d));
  if (byCountry) out.push(say.byLastQuarter(name(money), dim(byCountry)));
  const city = dims.find((d) => /city/i.test(d.name)) ?? dims[1];
  if (city) out.push(say.topFive(name(count), dim(city)));
  const status = dims.find((d) => /status/i.test(d.name)) ?? dims[2];
  if (status && hasTime) out.push(say.overTime(name(count), dim(status)));
  return out;
}
