import { and, asc, count, desc, eq, gt, ilike, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { PUBLIC_ID_PATTERN, type ConnectWorkbookInput, type Report, type ReportInput, type ReportSortBy } from "../../../schema/report";
import { rowsOf, type Db } from "../../db/connection";
import { deployments, reports } from "../../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../../domain/errors";
import { encodeCursor, isCursorInt } from "../../domain/pagination";
import { hasRole, type UserPrincipal } from "../../domain/actor";
import {
  accessLevel,
  atLeast,
  deleteGrantsOf,
  folderPaths,
  readableCondition,
  readableSet,
  requireEditableContainer,
  requireFoundAccess,
  type EffectiveAccess,
} from "../access/service";

type ReportRow = typeof reports.$inferSelect;

export function reportView(row: ReportRow, folderPath: { id: number; name: string }[], level: EffectiveAccess): Report {
  return {
    id: row.id,
    publicId: row.publicId,
    deploymentId: row.deploymentId,
    type: "REPORT",
    folderId: row.folderId,
    folderPath,
    workbookId: row.workbookId,
    name: row.name,
    title: row.title,
    description: row.description,
    kind: row.kind,
    query: row.query ?? null,
    sqlQuery: row.sqlQuery,
    spec: (row.spec ?? null) as Report["spec"],
    meta: row.meta ?? null,
    fillMissingRows: (row.fillMissingRows ?? null) as Report["fillMissingRows"],
    periodComparisons: (row.periodComparisons ?? null) as Report["periodComparisons"],
    preferences: (row.preferences ?? null) as Report["preferences"],
    externalWorkbookPlacements: row.externalWorkbookPlacements ?? [],
    versionNumber: row.versionNumber,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastViewedAt: row.lastViewedAt?.toISOString() ?? null,
    canEdit: atLeast(level, "edit"),
    canManage: atLeast(level, "manage"),
  };
}

async function viewsOf(db: Db, rows: ReportRow[], actor: UserPrincipal): Promise<Report[]> {
  const paths = await folderPaths(
    db,
    rows.flatMap((r) => (r.folderId !== null ? [r.folderId] : [])),
  );
  const out: Report[] = [];
  for (const r of rows) {
    const level = await accessLevel(db, actor, "report", r.id);
    out.push(reportView(r, r.folderId !== null ? (paths.get(r.folderId) ?? []) : [], level));
  }
  return out;
}

export async function reportViewOf(db: Db, row: ReportRow, actor: UserPrincipal): Promise<Report> {
  return (await viewsOf(db, [row], actor))[0]!;
}

/** Content columns that make a new report version when they change. */
const CONTENT_FIELDS = [
  "name",
  "title",
  "description",
  "kind",
  "query",
  "sqlQuery",
  "spec",
  "meta",
  "fillMissingRows",
  "periodComparisons",
  "preferences",
] as const;
const JSON_FIELDS = new Set(["query", "spec", "meta", "fillMissingRows", "periodComparisons", "preferences"]);
const COLUMN: Record<string, string> = {
  name: "name",
  title: "title",
  description: "description",
  kind: "kind",
  query: "query",
  sqlQuery: "sql_query",
  spec: "spec",
  meta: "meta",
  fillMissingRows: "fill_missing_rows",
  periodComparisons: "period_comparisons",
  preferences: "preferences",
  folderId: "folder_id",
  workbookId: "workbook_id",
};

function valueSql(field: string, value: unknown): SQL {
  if (field === "meta") return value === null ? sql`NULL::jsonb` : sql`coalesce(meta, '{}'::jsonb) || ${JSON.stringify(value)}::jsonb`;
  if (JSON_FIELDS.has(field)) return value === null ? sql`NULL::jsonb` : sql`${JSON.stringify(value)}::jsonb`;
  if (field === "folderId" || field === "workbookId") return sql`${value as number | null}::integer`;
  return sql`${value as string | null}::text`;
}

/**
 * The containers a report write names: edit access to each (404 for one the actor cannot see).
 * The workbook the report is already in is not named anew.
 */
async function requireContainers(db: Db, deploymentId: number, input: ReportInput, actor: UserPrincipal, currentWorkbookId: number | null = null) {
  if (input.workbookId !== undefined && input.workbookId !== null && input.workbookId !== currentWorkbookId)
    await requireEditableContainer(db, actor, deploymentId, "workbook", input.workbookId);
  if (input.folderId !== undefined && input.folderId !== null) await requireEditableContainer(db, actor, deploymentId, "folder", input.folderId);
}

/**
 * `PUT …/reports/by-public-id/{publicId}`: creates the report with this public id, or updates
 * it (only the fields sent; `meta` merged). A public id held by another deployment is a
 * permanent 409 `public_id_taken`. Same access rules as workbooks: create needs ai_bi_user,
 * update needs edit (a report the actor cannot see answers 404), a move (`folderId`) needs
 * manage; the folder and the workbook named need edit (404 when the actor cannot see them).
 * Changed content bumps `versionNumber`; the same request again writes nothing.
 */
export async function upsertReportByPublicId(db: Db, deploymentId: number, publicId: string, input: ReportInput, actor: UserPrincipal): Promise<Report> {
  if (!PUBLIC_ID_PATTERN.test(publicId))
    throw badRequest("Invalid public id: must be 12 characters [0-9A-Za-z]", [{ path: ["publicId"], message: "must be 12 characters [0-9A-Za-z]" }]);
  const [dep] = await db.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId));
  if (!dep) throw notFound("Deployment");

  for (let attempt = 0; attempt < 2; attempt++) {
    const [existing] = await db.select().from(reports).where(eq(reports.publicId, publicId));
    if (existing && existing.deploymentId !== deploymentId) {
      throw conflict(`The public id ${publicId} belongs to a report of another deployment`, "public_id_taken");
    }
    if (!existing) {
      if (!hasRole(actor, "ai_bi_user")) throw forbidden("Creating a report needs the role ai_bi_user or higher");
      await requireContainers(db, deploymentId, input, actor);
      const [created] = await db
        .insert(reports)
        .values({
          publicId,
          deploymentId,
          folderId: input.folderId ?? null,
          workbookId: input.workbookId ?? null,
          name: input.name ?? publicId,
          title: input.title ?? null,
          description: input.description ?? null,
          kind: input.kind ?? null,
          query: input.query ?? null,
          sqlQuery: input.sqlQuery ?? null,
          spec: input.spec ?? null,
          meta: input.meta ?? null,
          fillMissingRows: input.fillMissingRows ?? null,
          periodComparisons: input.periodComparisons ?? null,
          preferences: input.preferences ?? null,
          createdBy: actor.userId,
        })
        .onConflictDoNothing({ target: reports.publicId })
        .returning();
      if (created) return reportViewOf(db, created, actor);
      continue; // created meanwhile by another writer: decide again, now as an update
    }

    const level = await requireFoundAccess(db, actor, "report", existing.id, "edit", "Updating this report needs edit access to it");
    if (input.folderId !== undefined && !atLeast(level, "manage")) throw forbidden("Moving this report (folderId) needs manage access to it");
    await requireContainers(db, deploymentId, input, actor, existing.workbookId);
    const fields = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined && !(k === "name" && input.name === null));
    if (!fields.length) return reportViewOf(db, existing, actor);
    const cols = fields.map((f) => sql.raw(COLUMN[f]!));
    const vals = fields.map((f) => valueSql(f, (input as Record<string, unknown>)[f]));
    const contentChanged = fields.some((f) => (CONTENT_FIELDS as readonly string[]).includes(f));
    const contentCols = fields.filter((f) => (CONTENT_FIELDS as readonly string[]).includes(f));
    const versionBump = contentChanged
      ? sql`, version_number = CASE WHEN (${sql.join(
          contentCols.map((f) => sql.raw(COLUMN[f]!)),
          sql`, `,
        )}, true) IS DISTINCT FROM (${sql.join(
          contentCols.map((f) => valueSql(f, (input as Record<string, unknown>)[f])),
          sql`, `,
        )}, true) THEN version_number + 1 ELSE version_number END`
      : sql``;
    const [updated] = await rowsOf<{ id: number }>(
      db,
      sql`UPDATE reports SET ${sql.join(
        cols.map((c, i) => sql`${c} = ${vals[i]}`),
        sql`, `,
      )}${versionBump}, updated_at = now()
        WHERE id = ${existing.id} AND (${sql.join(cols, sql`, `)}, true) IS DISTINCT FROM (${sql.join(vals, sql`, `)}, true) RETURNING id`,
    );
    const [row] = await db
      .select()
      .from(reports)
      .where(eq(reports.id, updated ? updated.id : existing.id));
    if (!row) throw notFound("Report");
    return reportViewOf(db, row, actor);
  }
  throw conflict("The report was created and deleted meanwhile; retry", "upsert_branch_changed");
}

/** The report when it exists in the deployment and the actor has `needed`; 404 / 403 otherwise. */
export async function requireReport(db: Db, deploymentId: number, reportId: number, actor: UserPrincipal, needed: "read" | "edit" | "manage") {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.id, reportId), eq(reports.deploymentId, deploymentId)));
  const level = await requireFoundAccess(db, actor, "report", row?.id ?? null, needed);
  return { row: row!, level };
}

export async function getReport(db: Db, deploymentId: number, reportId: number, actor: UserPrincipal): Promise<Report> {
  const { row } = await requireReport(db, deploymentId, reportId, actor, "read");
  return reportViewOf(db, row, actor);
}

/**
 * Spec 4.2 connect-workbook: records where the caller's spreadsheet places the report's result
 * (one placement per external workbook). Read access to the report suffices.
 */
export async function connectWorkbook(db: Db, deploymentId: number, reportId: number, input: ConnectWorkbookInput, actor: UserPrincipal): Promise<Report> {
  await requireReport(db, deploymentId, reportId, actor, "read");
  const placement = { workbookId: input.externalWorkbookId, resultLocation: input.resultLocation, endResultCell: input.endResultCell ?? null };
  // Replace the placement of that external workbook in one statement, so concurrent connects of different workbooks both stay.
  await db.execute(sql`UPDATE reports SET external_workbook_placements = coalesce((
      SELECT jsonb_agg(p) FROM jsonb_array_elements(external_workbook_placements) p WHERE p->>'workbookId' <> ${input.externalWorkbookId}
    ), '[]'::jsonb) || jsonb_build_array(${JSON.stringify(placement)}::jsonb)
    WHERE id = ${reportId}`);
  const [row] = await db.select().from(reports).where(eq(reports.id, reportId));
  if (!row) throw notFound("Report");
  return reportViewOf(db, row, actor);
}

export interface ReportListOptions {
  first: number;
  after?: { v: string | null; id: number };
  /** True when the caller sent `first` or `after` (cursor paging). */
  paged: boolean;
  sortBy: ReportSortBy;
  search?: string;
  folderId?: number | null;
  externalWorkbookId?: string;
}

/** Upper bound of an unpaged list (sorting by lastViewedAt has no cursor). */
export const MAX_UNPAGED_REPORTS = 1000;

/**
 * Spec 4.2 reports list. Cursor paging orders by (sort key, id); sorting by `lastViewedAt`
 * has no cursor (spec 8), so paging parameters are refused with it and the list comes whole.
 */
export async function listReports(db: Db, deploymentId: number, opts: ReportListOptions, actor: UserPrincipal) {
  if (opts.sortBy === "lastViewedAt" && opts.paged) {
    throw badRequest("Cursor pagination (first, after) is unavailable when sorting by lastViewedAt", [
      { path: [opts.after ? "after" : "first"], message: "not available with sortBy=lastViewedAt" },
    ]);
  }
  const [dep] = await db.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId));
  if (!dep) throw notFound("Deployment");
  const readable = await readableSet(db, actor, deploymentId);
  const where = and(
    eq(reports.deploymentId, deploymentId),
    opts.folderId === undefined ? undefined : opts.folderId === null ? isNull(reports.folderId) : eq(reports.folderId, opts.folderId),
    opts.search ? or(ilike(reports.name, like(opts.search)), ilike(reports.title, like(opts.search)), ilike(reports.publicId, like(opts.search))) : undefined,
    opts.externalWorkbookId ? sql`${reports.externalWorkbookPlacements} @> ${JSON.stringify([{ workbookId: opts.externalWorkbookId }])}::jsonb` : undefined,
    readableCondition(readable, { id: reports.id, folderId: reports.folderId, createdBy: reports.createdBy }, readable.reportIds),
  );
  const [total] = await db.select({ n: count() }).from(reports).where(where);

  // Sort keys as text that orders like the column: names as such, timestamps as ISO-like text.
  const key: Record<Exclude<ReportSortBy, "lastViewedAt">, SQL> = {
    name: sql`${reports.name}`,
    createdAt: sql`to_char(${reports.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`,
    updatedAt: sql`to_char(${reports.updatedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`,
  };
  if (opts.sortBy === "lastViewedAt") {
    const rows = await db
      .select()
      .from(reports)
      .where(where)
      .orderBy(sql`${reports.lastViewedAt} DESC NULLS LAST`, desc(reports.id))
      .limit(MAX_UNPAGED_REPORTS);
    return { items: await viewsOf(db, rows, actor), hasNextPage: false, total: Number(total?.n ?? 0), cursors: null };
  }
  const k = key[opts.sortBy];
  const ascending = opts.sortBy === "name";
  const collated = ascending ? sql`${k} COLLATE "C"` : k;
  let afterCond: SQL | undefined;
  if (opts.after) {
    const v = opts.after.v ?? "";
    afterCond = ascending
      ? or(gt(collated, v), and(sql`${collated} = ${v}`, gt(reports.id, opts.after.id)))
      : or(lt(collated, v), and(sql`${collated} = ${v}`, lt(reports.id, opts.after.id)));
  }
  const rows = await db
    .select({ r: reports, k: sql<string>`${k}` })
    .from(reports)
    .where(and(where, afterCond))
    .orderBy(...(ascending ? [asc(collated), asc(reports.id)] : [desc(collated), desc(reports.id)]))
    .limit(opts.first + 1);
  const hasNextPage = rows.length > opts.first;
  const page = rows.slice(0, opts.first);
  const items = await viewsOf(
    db,
    page.map((r) => r.r),
    actor,
  );
  const cursorOf = (r: (typeof page)[number]) => encodeCursor({ v: r.k, id: r.r.id });
  return {
    items,
    hasNextPage,
    total: Number(total?.n ?? 0),
    cursors: page.length ? { start: cursorOf(page[0]!), end: cursorOf(page[page.length - 1]!) } : null,
  };
}

function like(s: string) {
  return `%${s.replace(/[\\%_]/g, (m) => "\\" + m)}%`;
}

export const isReportCursor = (v: unknown): v is { v: string | null; id: number } =>
  typeof v === "object" &&
  v !== null &&
  isCursorInt((v as { id: unknown }).id) &&
  (typeof (v as { v: unknown }).v === "string" || (v as { v: unknown }).v === null);

/** Deletes a report (manage access). */
export async function deleteReport(db: Db, deploymentId: number, reportId: number, actor: UserPrincipal) {
  await requireReport(db, deploymentId, reportId, actor, "manage");
  await db.delete(reports).where(eq(reports.id, reportId));
  await deleteGrantsOf(db, "report", [reportId]);
}
