import { createHash, randomInt } from "node:crypto";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { INT4_MAX } from "../../../schema/common";
import { refusedScriptSources } from "../../../schema/app-scripts";
import { DashboardConfig, type Dashboard, type ReportSnapshot } from "../../../schema/dashboard";
import type { Db } from "../../db/connection";
import { aiWidgetThreads, dashboards, dashboardVersions, reports, workbooks } from "../../db/schema";
import { badRequest, conflict, forbidden, DomainError, notFound, zodDetails } from "../../domain/errors";
import type { UserPrincipal } from "../../domain/actor";
import { accessLevel, atLeast, readableCondition, readableSet } from "../access/service";

const PUBLIC_ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A new public id: 12 characters [0-9A-Za-z], crypto-random (62^12 ≈ 3·10^21, collisions are retried by the unique index). */
export function generatePublicId(): string {
  let out = "";
  for (let i = 0; i < 12; i++) out += PUBLIC_ID_ALPHABET[randomInt(PUBLIC_ID_ALPHABET.length)];
  return out;
}

type DashboardRow = typeof dashboards.$inferSelect;
type VersionRow = typeof dashboardVersions.$inferSelect;

/** Spec 2.5 from a dashboard row and its published version. */
export function dashboardView(d: DashboardRow, v: Pick<VersionRow, "config" | "reportSnapshots">, fromSharedWorkspace: boolean | null): Dashboard {
  return {
    id: d.id,
    publicId: d.publicId,
    deploymentId: d.deploymentId,
    workbookId: d.workbookId,
    status: d.status,
    allowEmbed: d.allowEmbed,
    config: v.config as DashboardConfig,
    versionNumber: d.versionNumber,
    versionId: d.versionId ?? 0,
    reportSnapshots: v.reportSnapshots,
    createdBy: d.createdBy,
    description: d.description,
    title: d.title,
    fromSharedWorkspace,
    restrictDataDownload: d.restrictDataDownload,
    useBoardDashboards: null,
  };
}

/** Creates the workbook's dashboard (status draft) when it has none; returns it either way. */
export async function ensureDashboard(db: Db, workbook: { id: number; deploymentId: number }, actorId: number | null): Promise<DashboardRow> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [created] = await db
      .insert(dashboards)
      .values({ publicId: generatePublicId(), deploymentId: workbook.deploymentId, workbookId: workbook.id, createdBy: actorId })
      .onConflictDoNothing()
      .returning();
    if (created) return created;
    const [existing] = await db.select().from(dashboards).where(eq(dashboards.workbookId, workbook.id));
    if (existing) return existing;
    // Neither inserted nor found: the rare public-id collision; draw again.
  }
  throw new DomainError("internal_error", "Could not allocate a dashboard public id");
}

/** JSON with sorted keys, so equal content hashes equally whatever the key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

type ReportRow = typeof reports.$inferSelect;

/** Spec 2.8 / decisions: the frozen copy of a report; the semantic query goes to `meta.query`. */
export function snapshotOf(report: ReportRow, ordinal: number): ReportSnapshot {
  return {
    id: ordinal,
    reportId: report.id,
    versionNumber: report.versionNumber,
    name: report.name,
    title: report.title,
    description: report.description,
    kind: report.kind,
    sqlQuery: report.sqlQuery,
    spec: (report.spec ?? null) as ReportSnapshot["spec"],
    fillMissingRows: (report.fillMissingRows ?? null) as ReportSnapshot["fillMissingRows"],
    periodComparisons: (report.periodComparisons ?? null) as ReportSnapshot["periodComparisons"],
    preferences: (report.preferences ?? null) as ReportSnapshot["preferences"],
    meta: { ...(report.meta ?? {}), query: report.query ?? null },
  };
}

/** Validates a draft config; 400 with the path of each problem under `pathPrefix`. */
export function parseDashboardConfig(value: unknown, pathPrefix: (string | number)[]): DashboardConfig {
  const parsed = DashboardConfig.safeParse(value);
  if (!parsed.success) {
    const details = zodDetails(parsed.error, pathPrefix);
    throw badRequest(`Invalid dashboard config: ${details[0]!.path.join(".")}: ${details[0]!.message}`, details);
  }
  return parsed.data;
}

/**
 * The reports CHART widgets reference, in widget order; unknown references are a 400 with paths.
 * A report the actor cannot read is unknown to them, word for word (docs/decisions.md "Who may
 * write where"): its content is never copied into a dashboard by someone who may not see it.
 */
export async function resolveWidgetReports(db: Db, deploymentId: number, config: DashboardConfig, pathPrefix: (string | number)[], actor: UserPrincipal) {
  const refs: { path: (string | number)[]; id?: number; publicId?: string }[] = [];
  // CHART widgets anywhere in the draft, the ones inside TABS_CONTAINER tabs included.
  const visit = (widgets: unknown, path: (string | number)[]) => {
    if (!Array.isArray(widgets)) return;
    widgets.forEach((w: { type?: unknown; config?: Record<string, unknown> | null }, i) => {
      if (!w || typeof w !== "object" || !w.config) return;
      const at = [...path, i, "config"];
      if (w.type === "TABS_CONTAINER" && Array.isArray(w.config.tabs)) {
        w.config.tabs.forEach((tab: { widgets?: unknown } | null, t: number) => visit(tab?.widgets, [...at, "tabs", t, "widgets"]));
        return;
      }
      if (w.type !== "CHART") return;
      const { reportId, reportPublicId } = w.config as { reportId?: unknown; reportPublicId?: unknown };
      if (reportId !== undefined && reportId !== null) {
        // Compared with an int4 column: a number beyond it is refused here, not by the database.
        if (!Number.isInteger(reportId) || (reportId as number) < 1 || (reportId as number) > INT4_MAX) {
          throw badRequest("A widget reportId must be a report id", [{ path: [...at, "reportId"], message: `expected an integer from 1 to ${INT4_MAX}` }]);
        }
        refs.push({ path: [...at, "reportId"], id: reportId as number });
      } else if (typeof reportPublicId === "string") {
        refs.push({ path: [...at, "reportPublicId"], publicId: reportPublicId });
      }
    });
  };
  visit(config.widgets, [...pathPrefix, "widgets"]);
  if (!refs.length) return [];
  const ids = refs.flatMap((r) => (r.id !== undefined ? [r.id] : []));
  const publicIds = refs.flatMap((r) => (r.publicId !== undefined ? [r.publicId] : []));
  const readable = await readableSet(db, actor, deploymentId);
  const rows = await db
    .select()
    .from(reports)
    .where(
      and(
        eq(reports.deploymentId, deploymentId),
        or(ids.length ? inArray(reports.id, ids) : undefined, publicIds.length ? inArray(reports.publicId, publicIds) : undefined),
        readableCondition(readable, { id: reports.id, folderId: reports.folderId, createdBy: reports.createdBy }, readable.reportIds),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byPublicId = new Map(rows.map((r) => [r.publicId, r]));
  const missing = refs.filter((r) => !(r.id !== undefined ? byId.has(r.id) : byPublicId.has(r.publicId!)));
  if (missing.length) {
    throw badRequest(
      `The draft references ${missing.length} report(s) that do not exist in this deployment`,
      missing.map((m) => ({ path: m.path, message: `no report with this ${m.id !== undefined ? "id" : "public id"} in this deployment` })),
    );
  }
  const ordered: ReportRow[] = [];
  const seen = new Set<number>();
  for (const r of refs) {
    const row = r.id !== undefined ? byId.get(r.id)! : byPublicId.get(r.publicId!)!;
    if (!seen.has(row.id)) {
      seen.add(row.id);
      ordered.push(row);
    }
  }
  return ordered;
}

/**
 * Publishes the workbook's draft (`meta.dashboardDraft`): validates it, freezes snapshots of the
 * reports its CHART widgets reference, and makes a new version — unless the draft and the
 * snapshots are unchanged since the current version, in which case nothing is written.
 * Needs edit access to the workbook.
 */
/**
 * An app loads no script from outside itself: a `<script src>` in its HTML that names none of its
 * files is refused, naming the file and line (libraries come through `manifest.dependencies`).
 */
function refuseOutsideScripts(app: NonNullable<DashboardConfig["app"]>) {
  const refused = refusedScriptSources(app);
  if (!refused.length) return;
  const details = refused.map((r) => ({
    path: ["meta", "dashboardDraft", "app", ...(r.file === "html" ? ["html"] : ["files", r.file])],
    message: `line ${r.line}: <script src="${r.src}"> names no file of the app; an app loads no script from elsewhere (platform libraries: manifest.dependencies)`,
  }));
  const first = refused[0]!;
  throw badRequest(
    `The app's ${first.file === "html" ? "html" : `file "${first.file}"`}, line ${first.line}: <script src="${first.src}"> is not one of the app's files; scripts from elsewhere are not allowed${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ""}`,
    details,
  );
}

export async function publishDashboard(db: Db, workbookId: number, actor: UserPrincipal, opts: { deploymentId?: number } = {}): Promise<Dashboard> {
  const [wb] = await db.select().from(workbooks).where(eq(workbooks.id, workbookId));
  if (!wb || (opts.deploymentId !== undefined && wb.deploymentId !== opts.deploymentId)) throw notFound("Workbook");
  const level = await accessLevel(db, actor, "workbook", wb.id);
  if (level === "none") throw notFound("Workbook");
  if (!atLeast(level, "edit")) throw forbidden("Publishing needs edit access to the workbook");
  const draft = wb.meta?.dashboardDraft;
  if (draft === undefined || draft === null) {
    throw badRequest("The workbook has no dashboard draft to publish", [{ path: ["meta", "dashboardDraft"], message: "required to publish" }]);
  }
  const config = parseDashboardConfig(draft, ["meta", "dashboardDraft"]);
  if (config.kind === "APP" && config.app) refuseOutsideScripts(config.app);
  const reportRows = await resolveWidgetReports(db, wb.deploymentId, config, ["meta", "dashboardDraft"], actor);
  // An app dashboard has no widgets naming reports: it may ask for any report of its workbook.
  if (config.kind === "APP") {
    const own = await db
      .select()
      .from(reports)
      .where(and(eq(reports.deploymentId, wb.deploymentId), eq(reports.workbookId, wb.id)))
      .orderBy(reports.id);
    for (const r of own) if (!reportRows.some((x) => x.id === r.id)) reportRows.push(r);
  }
  const snapshots = reportRows.map((r, i) => snapshotOf(r, i + 1));
  const checksum = createHash("sha256").update(canonicalJson({ config, snapshots })).digest("hex");
  await ensureDashboard(db, wb, actor.userId);

  return db.transaction(async (tx) => {
    // The row lock serializes publishers of one dashboard, so equal drafts make one version.
    const [d] = await tx.select().from(dashboards).where(eq(dashboards.workbookId, wb.id)).for("update");
    if (!d) throw notFound("Workbook");
    if (d.versionId !== null) {
      const [current] = await tx.select().from(dashboardVersions).where(eq(dashboardVersions.id, d.versionId));
      if (current && current.checksum === checksum && d.status === "published") return dashboardView(d, current, wb.shared);
    }
    const versionNumber = d.versionNumber + 1;
    const [version] = await tx
      .insert(dashboardVersions)
      .values({
        dashboardId: d.id,
        versionNumber,
        config: config as Record<string, unknown>,
        reportSnapshots: snapshots,
        checksum,
        createdBy: actor.userId,
      })
      .returning();
    const [updated] = await tx
      .update(dashboards)
      .set({
        status: "published",
        versionId: version!.id,
        versionNumber,
        title: config.title ?? null,
        description: config.description ?? null,
        updatedAt: new Date(),
      })
      .where(eq(dashboards.id, d.id))
      .returning();
    return dashboardView(updated!, version!, wb.shared);
  });
}

/** The published dashboard of a workbook, with the checksum of its version. */
export async function getPublishedDashboard(db: Db, workbookId: number) {
  const [row] = await db
    .select({ d: dashboards, v: dashboardVersions, shared: workbooks.shared })
    .from(dashboards)
    .innerJoin(dashboardVersions, eq(dashboardVersions.id, dashboards.versionId))
    .innerJoin(workbooks, eq(workbooks.id, dashboards.workbookId))
    .where(eq(dashboards.workbookId, workbookId));
  return row ?? null;
}

/**
 * Spec 4.2 ai-widget-thread: attaches a thread to an AI widget of the published dashboard.
 * A `checksum` that is not the published version's is refused (the caller saw another version).
 */
export async function attachAiWidgetThread(
  db: Db,
  deploymentId: number,
  workbookId: number,
  input: { threadId: string; widgetId: string; checksum?: string },
  actor: UserPrincipal,
): Promise<Dashboard> {
  const [wb] = await db.select({ id: workbooks.id, deploymentId: workbooks.deploymentId }).from(workbooks).where(eq(workbooks.id, workbookId));
  if (!wb || wb.deploymentId !== deploymentId) throw notFound("Workbook");
  if ((await accessLevel(db, actor, "workbook", wb.id)) === "none") throw notFound("Workbook");
  const published = await getPublishedDashboard(db, wb.id);
  if (!published || published.d.status !== "published") throw conflict("The workbook has no published dashboard", "dashboard_not_published");
  if (input.checksum !== undefined && input.checksum !== published.v.checksum) {
    throw conflict("The dashboard was published again since this checksum; reload it", "stale_checksum");
  }
  const widgets = ((published.v.config as DashboardConfig).widgets ?? []) as { id: string; type: string }[];
  const widget = widgets.find((w) => w.id === input.widgetId);
  if (!widget) throw badRequest(`No widget ${input.widgetId} in the published dashboard`, [{ path: ["widgetId"], message: "no such widget" }]);
  if (widget.type !== "AI") throw badRequest(`Widget ${input.widgetId} is not an AI widget`, [{ path: ["widgetId"], message: "not an AI widget" }]);
  await db
    .insert(aiWidgetThreads)
    .values({ dashboardId: published.d.id, widgetId: input.widgetId, threadId: input.threadId, checksum: published.v.checksum })
    .onConflictDoUpdate({
      target: [aiWidgetThreads.dashboardId, aiWidgetThreads.widgetId],
      set: { threadId: input.threadId, checksum: published.v.checksum, updatedAt: sql`now()` },
    });
  return dashboardView(published.d, published.v, published.shared);
}
