import { createHash } from "node:crypto";
import pg from "pg";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { DashboardConfig, ReportSnapshot } from "../../../schema/dashboard";
import type { Workbook } from "../../../schema/workbook";
import { storeClientOf, type Db } from "../../db/connection";
import { folderPaths, rowsOf } from "../access/service";
import { dashboardView } from "../dashboards/service";

/**
 * One row of `viewQuery`'s SELECT list (raw SQL, so the type describes that list, not the
 * table): the workbook, its owner, the viewer's favorite flag, its dashboard and published
 * version.
 */
export interface ViewRow {
  id: number;
  deployment_id: number;
  folder_id: number | null;
  name: string;
  slug: string | null;
  meta: Record<string, unknown>;
  calculated_fields: Record<string, unknown>;
  created_by: number | null;
  user_id: number | null;
  shared: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  owner_email: string | null;
  owner_first_name: string | null;
  owner_picture: string | null;
  is_favorite: boolean;
  folder_path?: { id: number; name: string }[];
  d_id?: number | null;
  d_public_id?: string | null;
  d_status?: "draft" | "published" | "archived" | null;
  d_allow_embed?: boolean | null;
  d_version_id?: number | null;
  d_version_number?: number | null;
  d_title?: string | null;
  d_description?: string | null;
  d_restrict_data_download?: boolean | null;
  d_created_by?: number | null;
  published_config: Record<string, unknown> | null;
  published_snapshots: ReportSnapshot[] | null;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/**
 * The full Workbook of spec 2.2 for each row of `source` (a SELECT, or an INSERT/UPDATE …
 * RETURNING *), in one statement: owner, favorite, folder path, draft and published dashboard.
 */
export function viewQuery(source: SQL, viewerId: number, tail: SQL = sql``, prelude?: SQL): SQL {
  // Plain joins only: a recursive folder walk here would be planned on every call, so the
  // folder path is read separately, and only for workbooks that are in a folder.
  return sql`WITH ${prelude ? sql`${prelude}, ` : sql``}w AS (${source})
    SELECT w.id, w.deployment_id, w.folder_id, w.name, w.slug, w.meta, w.calculated_fields, w.created_by, w.user_id, w.shared,
      w.created_at, w.updated_at, u.email AS owner_email, u.first_name AS owner_first_name, u.picture AS owner_picture,
      fv.user_id IS NOT NULL AS is_favorite,
      d.id AS d_id, d.public_id AS d_public_id, d.status AS d_status, d.allow_embed AS d_allow_embed, d.version_id AS d_version_id,
      d.version_number AS d_version_number, d.title AS d_title, d.description AS d_description,
      d.restrict_data_download AS d_restrict_data_download, d.created_by AS d_created_by,
      v.config AS published_config, v.report_snapshots AS published_snapshots
    FROM w
    LEFT JOIN users u ON u.id = w.user_id
    LEFT JOIN favorites fv ON fv.workbook_id = w.id AND fv.user_id = ${viewerId}
    LEFT JOIN dashboards d ON d.workbook_id = w.id
    LEFT JOIN dashboard_versions v ON v.id = d.version_id ${tail}`;
}

export function workbookView(r: ViewRow): Workbook {
  const draft = r.meta?.dashboardDraft;
  const d =
    r.d_id !== null && r.d_id !== undefined
      ? {
          id: r.d_id,
          publicId: r.d_public_id!,
          deploymentId: r.deployment_id,
          workbookId: r.id,
          status: r.d_status!,
          allowEmbed: r.d_allow_embed!,
          versionId: r.d_version_id ?? null,
          versionNumber: r.d_version_number ?? 0,
          title: r.d_title ?? null,
          description: r.d_description ?? null,
          restrictDataDownload: r.d_restrict_data_download ?? null,
          createdBy: r.d_created_by ?? null,
        }
      : null;
  const published = d && d.versionId !== null && r.published_config;
  return {
    id: r.id,
    deploymentId: r.deployment_id,
    name: r.name,
    meta: r.meta ?? {},
    calculatedFields: r.calculated_fields ?? {},
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    type: "WORKBOOK",
    slug: r.slug,
    ...(r.created_by !== null ? { createdBy: r.created_by } : {}),
    userId: r.user_id,
    user:
      r.user_id !== null && r.owner_email !== null ? { id: r.user_id, email: r.owner_email, firstName: r.owner_first_name, picture: r.owner_picture } : null,
    folderId: r.folder_id,
    folderPath: r.folder_path ?? [],
    isFavorite: r.is_favorite,
    dashboardDraft: draft === undefined || draft === null ? null : (draft as DashboardConfig),
    dashboardPublished: published ? (r.published_config as DashboardConfig) : null,
    publishedDashboard: published
      ? dashboardView(
          { ...d, createdAt: new Date(0), updatedAt: new Date(0) },
          { config: r.published_config!, reportSnapshots: r.published_snapshots ?? [] },
          r.shared,
        )
      : null,
  };
}

/** Writes drizzle's SQL objects as statement text and parameters, as the Postgres driver would. */
const pgDialect = new PgDialect();

/**
 * Runs a statement as a named prepared statement on a Postgres server pool (parsed and planned
 * once per connection: the upsert's statements vary only by which fields are sent), or plainly
 * on PGlite.
 */
export async function rowsPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const client = storeClientOf(db);
  if (client instanceof pg.Pool) {
    const { sql: text, params } = pgDialect.sqlToQuery(query);
    const name = "svc_" + createHash("sha1").update(text).digest("hex").slice(0, 20);
    return (await client.query({ name, text, values: params })).rows as T[];
  }
  return rowsOf<T>(db, query);
}

export async function withFolderPaths(db: Db, rows: ViewRow[]): Promise<ViewRow[]> {
  const folderIds = rows.flatMap((r) => (r.folder_id !== null ? [Number(r.folder_id)] : []));
  if (!folderIds.length) return rows;
  const paths = await folderPaths(db, folderIds);
  return rows.map((r) => (r.folder_id !== null ? { ...r, folder_path: paths.get(Number(r.folder_id)) ?? [] } : r));
}

export async function viewRows(db: Db, source: SQL, viewerId: number, tail?: SQL, prelude?: SQL): Promise<Workbook[]> {
  const rows = await rowsPrepared<ViewRow>(db, viewQuery(source, viewerId, tail, prelude));
  return (await withFolderPaths(db, rows)).map(workbookView);
}

/** One workbook as spec 2.2, or null. */
export async function getWorkbookView(db: Db, workbookId: number, viewerId: number): Promise<Workbook | null> {
  const [wb] = await viewRows(db, sql`SELECT * FROM workbooks WHERE id = ${workbookId}`, viewerId);
  return wb ?? null;
}
