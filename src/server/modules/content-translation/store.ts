import { createHash } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { dictionaryLocaleOf, TRANSLATIONS_DIR, type ContentDictionary } from "../../../schema/content-translation";
import type { Db } from "../../db/connection";
import { dataModelFiles } from "../../db/schema";
import { parseDictionaryFile } from "../../semantic/dictionary-file";

/** A deployment's dictionaries, by locale, as `main` holds them. */
export type Dictionaries = Map<string, { path: string; dictionary: ContentDictionary }>;

/** Parsed dictionaries kept per node by their content's sha256 (the text is read on every request; parsing is not). */
const MAX_PARSED = 64;
const parsed = new Map<string, ContentDictionary | null>();

function parseCached(path: string, content: string): ContentDictionary | null {
  const key = createHash("sha256").update(path).update("\0").update(content).digest("hex");
  if (parsed.has(key)) return parsed.get(key)!;
  const read = parseDictionaryFile({ path, content });
  const dictionary = read.ok ? read.dictionary : null;
  parsed.set(key, dictionary);
  if (parsed.size > MAX_PARSED) parsed.delete(parsed.keys().next().value!);
  return dictionary;
}

/**
 * The dictionaries of a deployment's production model (`main`). Only a valid model reaches
 * `main`, so every file here parses; one that does not (written around the build API) is left out.
 */
export async function loadDictionaries(db: Db, deploymentId: number): Promise<Dictionaries> {
  const rows = await db
    .select({ path: dataModelFiles.path, content: dataModelFiles.content })
    .from(dataModelFiles)
    .where(and(eq(dataModelFiles.deploymentId, deploymentId), eq(dataModelFiles.branch, "main"), like(dataModelFiles.path, `${TRANSLATIONS_DIR}/%`)));
  const out: Dictionaries = new Map();
  for (const row of rows.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const locale = dictionaryLocaleOf(row.path);
    const dictionary = locale ? parseCached(row.path, row.content) : null;
    if (locale && dictionary && !out.has(locale)) out.set(locale, { path: row.path, dictionary });
  }
  return out;
}

/** How long a node serves viewers the dictionaries it read (a change on another node shows at most this much later). */
const VIEWER_CACHE_MS = 1000;
// Per database, then per deployment (tests run several platforms in one process).
const forViewersOf = new WeakMap<Db, Map<number, { at: number; dictionaries: Promise<Dictionaries> }>>();

/**
 * The dictionaries as viewers' requests read them: kept for a second per node, so a dashboard's
 * burst of queries reads them once. Developers' endpoints read them fresh (`loadDictionaries`).
 */
export function viewerDictionaries(db: Db, deploymentId: number): Promise<Dictionaries> {
  const now = Date.now();
  let forViewers = forViewersOf.get(db);
  if (!forViewers) forViewersOf.set(db, (forViewers = new Map()));
  const kept = forViewers.get(deploymentId);
  if (kept && now - kept.at < VIEWER_CACHE_MS) return kept.dictionaries;
  const dictionaries = loadDictionaries(db, deploymentId);
  forViewers.set(deploymentId, { at: now, dictionaries });
  dictionaries.catch(() => forViewers.delete(deploymentId));
  if (forViewers.size > 1000) forViewers.delete(forViewers.keys().next().value!);
  return dictionaries;
}

/** Drops this node's viewer copy of a deployment's dictionaries (after a write here). */
export function forgetViewerDictionaries(db: Db, deploymentId: number): void {
  forViewersOf.get(db)?.delete(deploymentId);
}

/**
 * The dictionary for a viewer's locale: the exact tag (`de-AT`), else the language alone (`de`),
 * else the first of that language (`de-DE`), else none (the source text is shown).
 */
export function pickDictionary(dictionaries: Dictionaries, locale: string | null | undefined): ContentDictionary | null {
  if (!locale) return null;
  const exact = dictionaries.get(locale);
  if (exact) return exact.dictionary;
  const language = locale.split("-")[0]!.toLowerCase();
  const bare = dictionaries.get(language);
  if (bare) return bare.dictionary;
  for (const [tag, entry] of dictionaries) if (tag.split("-")[0]!.toLowerCase() === language) return entry.dictionary;
  return null;
}
