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

export function startersOf(sources: { kind?: string; measures?: Member[]; dimensions?: Member[] }[]): string[] {
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
  if (byCountry) out.push(`${name(money)} by ${name(byCountry).toLowerCase()} last quarter`);
  const city = dims.find((d) => /city/i.test(d.name)) ?? dims[1];
  if (city) out.push(`${name(count)} by ${name(city).toLowerCase()}, top 5`);
  const status = dims.find((d) => /status/i.test(d.name)) ?? dims[2];
  if (status && hasTime) out.push(`${name(count)} by ${name(status).toLowerCase()} over time`);
  return out;
}
