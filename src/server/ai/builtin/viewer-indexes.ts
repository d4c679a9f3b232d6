/**
 * The viewer's view indexes: the views the viewer may query, with the values of their string
 * dimensions the viewer can see, and the day relative dates count from.
 */
import type { MetaMember, MetaSource } from "../../semantic/query-engine";
import type { SecurityContext } from "../../semantic/security-context";
import type { TurnContext } from "../types";
import { indexView, type ValueDoc, type ViewIndex } from "./view-index";

/**
 * The viewers' indexes, kept a short while per security context, per query engine: a changed
 * data model or data source gives the deployment a new engine, and so new indexes.
 */
type IndexEntry = { at: number; indexes: Promise<ViewIndex[]>; reference: Promise<Date> };
const indexCaches = new WeakMap<TurnContext["engine"], Map<string, IndexEntry>>();
const INDEX_TTL_MS = 60_000;
const MAX_VALUES_PER_DIMENSION = 500;

/**
 * A view whose members are also called by their titles in the viewer's locale (the model's
 * translations): a German viewer's "Abschlussquote" names `completion_rate` as "completion rate"
 * does, and so do the answer's own suggestions, which name members that way.
 */
function withViewerTitles(source: MetaSource, memberTitle: TurnContext["memberTitle"]): MetaSource {
  if (!memberTitle) return source;
  const titled = (m: MetaMember, dimension: boolean): MetaMember => {
    // Numbers other than measures are not asked "by" unless the model names them: left alone.
    if (dimension && m.type === "number" && !m.meta?.synonyms) return m;
    const own = [memberTitle(m.name, m.title), memberTitle(m.name, m.shortTitle)].filter((t) => t !== m.title && t !== m.shortTitle);
    if (own.length === 0) return m;
    const synonyms = Array.isArray(m.meta?.synonyms) ? m.meta.synonyms : [];
    return { ...m, meta: { ...m.meta, synonyms: [...new Set([...synonyms, ...own])] } };
  };
  return { ...source, measures: source.measures.map((m) => titled(m, false)), dimensions: source.dimensions.map((d) => titled(d, true)) };
}

async function buildIndexes(ctx: TurnContext, sources: MetaSource[]): Promise<ViewIndex[]> {
  const out: ViewIndex[] = [];
  for (const meta of sources) {
    const source = withViewerTitles(meta, ctx.memberTitle);
    const values: ValueDoc[] = [];
    for (const d of source.dimensions) {
      if (d.type !== "string") continue;
      const list = await ctx.engine.distinctValues(
        d.name,
        { limit: MAX_VALUES_PER_DIMENSION },
        { securityContext: ctx.securityContext, signal: ctx.signal, timeoutMs: ctx.queryTimeoutMs },
      );
      for (const v of list) if (typeof v === "string" && v.length <= 100) values.push({ member: d.name, value: v });
    }
    out.push(indexView(source, values));
  }
  return out;
}

/**
 * The day relative dates count from: today, or the day after the last data point when the
 * data ends before today (a data set that stopped last year still answers "last quarter").
 */
async function referenceDay(ctx: TurnContext, sources: MetaSource[]): Promise<Date> {
  const now = new Date();
  const source = sources.find((s) => s.dimensions.some((d) => d.type === "time") && s.measures.length > 0);
  if (!source) return now;
  const dim = source.dimensions.find((d) => d.type === "time")!;
  try {
    const result = await ctx.engine.load(
      { measures: [source.measures[0]!.name], timeDimensions: [{ dimension: dim.name, granularity: "day" }], order: [[dim.name, "desc"]], limit: 1 },
      { securityContext: ctx.securityContext, signal: ctx.signal, timeoutMs: ctx.queryTimeoutMs },
    );
    const last = result.data[0]?.[`${dim.name}.day`];
    if (typeof last !== "string") return now;
    const next = new Date(Date.parse(last.slice(0, 10) + "T00:00:00Z") + 86_400_000);
    return next < now ? next : now;
  } catch {
    return now;
  }
}

function securityKey(deploymentId: number, sc: SecurityContext, views: string[] | undefined, locale: string): string {
  return JSON.stringify([deploymentId, sc.role ?? null, sc.userId ?? null, sc.embedTenant, [...sc.groups].sort(), sc.userAttributes, views ?? null, locale]);
}

/** The viewer's view indexes and reference day (cached for a minute per viewer). */
export async function viewerIndexes(ctx: TurnContext): Promise<{ indexes: ViewIndex[]; reference: Date }> {
  const all = ctx.engine.meta(ctx.securityContext).sources;
  const views = all.some((s) => s.kind === "view") ? all.filter((s) => s.kind === "view") : all;
  const sources = ctx.views ? views.filter((v) => ctx.views!.includes(v.name)) : views;
  const key = securityKey(ctx.deploymentId, ctx.securityContext, ctx.views, ctx.locale);
  let indexCache = indexCaches.get(ctx.engine);
  if (!indexCache) indexCaches.set(ctx.engine, (indexCache = new Map()));
  const cache = indexCache;
  let entry = cache.get(key);
  if (!entry || Date.now() - entry.at > INDEX_TTL_MS) {
    entry = { at: Date.now(), indexes: buildIndexes(ctx, sources), reference: referenceDay(ctx, sources) };
    cache.set(key, entry);
    entry.indexes.catch(() => cache.delete(key));
    if (cache.size > 200) cache.delete(cache.keys().next().value!);
  }
  return { indexes: await entry.indexes, reference: await entry.reference };
}
