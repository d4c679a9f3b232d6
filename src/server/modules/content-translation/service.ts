import { and, eq, isNotNull } from "drizzle-orm";
import { stringify } from "yaml";
import { dictionaryPath, type ContentDictionary, type MissingTranslationReport } from "../../../schema/content-translation";
import type { DashboardConfig } from "../../../schema/dashboard";
import type { Db } from "../../db/connection";
import { dashboards, dashboardVersions, dataModelFiles, workbooks } from "../../db/schema";
import type { UserPrincipal } from "../../domain/actor";
import { notFound } from "../../domain/errors";
import { DataModelError, type DataModel } from "../../semantic";
import { compileModel } from "../data-model/compiled-models";
import { finishUpload, startUpload, uploadFile, type ModelDeps } from "../data-model/service";
import { sha256Of } from "../data-model/merge";
import { DEFAULT_BRANCH } from "../data-model/store";
import { contentSources, missingReport, type DashboardContent } from "./missing";
import { forgetViewerDictionaries, loadDictionaries } from "./store";

/** The locales with a dictionary on the deployment's `main`. */
export async function listDictionaries(db: Db, deploymentId: number) {
  const all = await loadDictionaries(db, deploymentId);
  return {
    locales: [...all].map(([locale, { path, dictionary }]) => ({
      locale,
      path,
      entries:
        Object.keys(dictionary.texts ?? {}).length +
        Object.keys(dictionary.members ?? {}).length +
        Object.values(dictionary.values ?? {}).reduce((n, v) => n + Object.keys(v).length, 0),
    })),
  };
}

/** A locale's dictionary exactly as written (404 when the deployment has none for it). */
export async function getDictionary(db: Db, deploymentId: number, locale: string) {
  const entry = (await loadDictionaries(db, deploymentId)).get(locale);
  if (!entry) throw notFound(`Dictionary "${locale}"`);
  return { locale, path: entry.path, dictionary: entry.dictionary };
}

/** A dictionary as its file holds it: YAML, the locale first. */
export function dictionaryYaml(locale: string, dictionary: ContentDictionary): string {
  const { locale: _written, ...rest } = dictionary;
  return stringify({ locale, ...rest }, { lineWidth: 0 });
}

/**
 * Writes a locale's dictionary as `translations/<locale>.yml` on `main`, one commit through the
 * build API's upload (all or nothing; a model that would not compile changes nothing; a connected
 * git remote receives it). An existing `.yaml` file of the locale is replaced.
 */
export async function putDictionary(deps: ModelDeps, deploymentId: number, actor: UserPrincipal, locale: string, dictionary: ContentDictionary) {
  const path = dictionaryPath(locale);
  const content = dictionaryYaml(locale, dictionary);
  const existing = (await loadDictionaries(deps.db, deploymentId)).get(locale);
  const { uploadId } = await startUpload(deps.db, deploymentId, actor, { branch: DEFAULT_BRANCH, mode: "merge" });
  await uploadFile(deps.db, deploymentId, actor, { uploadId, path, content: Buffer.from(content).toString("base64"), sha256: sha256Of(content) });
  const done = await finishUpload(deps, deploymentId, actor, {
    uploadId,
    message: `Translations: ${locale}`,
    ...(existing && existing.path !== path ? { deletePaths: [existing.path] } : {}),
  });
  forgetViewerDictionaries(deps.db, deploymentId);
  return { locale, path, commit: done.commit ? { id: done.commit.id } : null, dictionary: { ...dictionary, locale } };
}

/** The production model, compiled without a data source; null when there is none or it does not compile. */
async function productionModel(db: Db, deploymentId: number): Promise<DataModel | null> {
  const files = await db
    .select({ path: dataModelFiles.path, content: dataModelFiles.content })
    .from(dataModelFiles)
    .where(and(eq(dataModelFiles.deploymentId, deploymentId), eq(dataModelFiles.branch, DEFAULT_BRANCH)));
  if (!files.length) return null;
  try {
    return compileModel(files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)));
  } catch (e) {
    if (e instanceof DataModelError) return null;
    throw e;
  }
}

/** The deployment's published dashboards, as the missing report reads them. */
async function publishedDashboards(db: Db, deploymentId: number): Promise<DashboardContent[]> {
  const rows = await db
    .select({ publicId: dashboards.publicId, slug: workbooks.slug, config: dashboardVersions.config, snapshots: dashboardVersions.reportSnapshots })
    .from(dashboards)
    .innerJoin(dashboardVersions, eq(dashboardVersions.id, dashboards.versionId))
    .innerJoin(workbooks, eq(workbooks.id, dashboards.workbookId))
    .where(and(eq(dashboards.deploymentId, deploymentId), eq(dashboards.status, "published"), isNotNull(dashboards.versionId)));
  return rows.map((r) => ({
    key: r.slug ?? r.publicId,
    config: r.config as DashboardConfig,
    reports: r.snapshots as DashboardContent["reports"],
  }));
}

/** What a locale's dictionary lacks for the deployment's content (developers and admins only: it names the content). */
export async function missingTranslations(db: Db, deploymentId: number, locale: string): Promise<MissingTranslationReport> {
  const [all, model, boards] = await Promise.all([
    loadDictionaries(db, deploymentId),
    productionModel(db, deploymentId),
    publishedDashboards(db, deploymentId),
  ]);
  const dictionary = all.get(locale)?.dictionary ?? null;
  const others = new Map([...all].map(([tag, e]) => [tag, e.dictionary]));
  return missingReport(locale, contentSources(boards, model, dictionary), dictionary, others);
}
