/** The creator app's calls to the platform: the workspace, workbook, report, dashboard and app operations. */
import type { DashboardConfig, Dashboard } from "../../../schema/dashboard";
import type { AppHome, AppShares, AppStartingPoints, CopyDashboardInput, ShareTarget } from "../../../schema/creator-app";
import type { AppConfig } from "../../../schema/app-config";
import type { Report, ReportInput } from "../../../schema/report";
import type { WorkspaceItem, WorkspaceItemRef } from "../../../schema/workspace";
import type { WorkbookCalculatedFields } from "../../../schema/calculated-field";
import type { UpdateWorkbookInput } from "../../../schema/workspace";
import { dataOf, type EmbedApi } from "../../shell/api";
import type { SemanticQuery } from "../../shell/platform-api";

/** `calculatedFieldChanges` of a workbook update: keys removed, then fields set. */
export type CalculatedFieldChanges = NonNullable<UpdateWorkbookInput["calculatedFieldChanges"]>;
export interface AppWorkbook {
  id: number;
  name: string;
  folderId?: number | null;
  folderPath?: { id: number; name: string }[];
  isFavorite?: boolean | null;
  updatedAt: string;
  dashboardDraft?: DashboardConfig | null;
  dashboardPublished?: DashboardConfig | null;
  publishedDashboard?: Dashboard | null;
  /** The fields its reports may use, keyed `<view>.<name>` (spec 2.2). */
  calculatedFields?: WorkbookCalculatedFields | null;
}

export interface AppFolder {
  id: number;
  name: string;
  parentId: number | null;
  folderPath: { id: number; name: string }[];
}

export interface BulkResult {
  succeeded: WorkspaceItemRef[];
  failed: (WorkspaceItemRef & { code: string; message: string })[];
}

export interface MetaMember {
  name: string;
  title: string;
  shortTitle: string;
  type: "string" | "number" | "boolean" | "time";
  description?: string;
  format?: unknown;
  /** A measure's aggregation (`count`, `sum`, `avg`, …): counts and sums add up over rows. */
  measureType?: string;
}
export interface MetaSource {
  name: string;
  kind: "view" | "cube";
  title: string;
  description?: string;
  measures: MetaMember[];
  dimensions: MetaMember[];
}

type Method = "GET" | "PUT" | "POST" | "DELETE";

/** One typed-client call; the app's paths are all in the generated OpenAPI types. */
function call<T>(api: EmbedApi, method: Method, path: string, init: { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown } = {}) {
  const client = api.client as unknown as Record<Method, (p: string, i: object) => Promise<{ data?: T; error?: unknown; response: Response }>>;
  return dataOf<T>(client[method](path, { params: { path: init.path ?? {}, query: init.query }, ...(init.body !== undefined ? { body: init.body } : {}) }));
}

export function createAppApi(api: EmbedApi, deploymentId: number) {
  const d = { deploymentId };
  const base = "/api/v1/deployments/{deploymentId}";
  return {
    deploymentId,
    home: () => call<AppHome>(api, "GET", `${base}/app/home`, { path: d }),
    appConfig: () => call<AppConfig>(api, "GET", "/api/v1/app-config"),
    list: async (folderId: number | null) => {
      const items: WorkspaceItem[] = [];
      let after: string | undefined;
      for (let page = 0; page < 20; page++) {
        const res = await call<{ items: WorkspaceItem[]; pageInfo: { hasNextPage: boolean; endCursor?: string } }>(api, "GET", `${base}/workspace`, {
          path: d,
          query: { first: 100, ...(folderId !== null ? { folderId } : {}), ...(after ? { after } : {}) },
        });
        items.push(...res.items);
        if (!res.pageInfo.hasNextPage || !res.pageInfo.endCursor) break;
        after = res.pageInfo.endCursor;
      }
      return items;
    },
    search: (q: string) => call<{ items: WorkspaceItem[] }>(api, "GET", `${base}/app/search`, { path: d, query: { q } }).then((r) => r.items),
    folder: (folderId: number) => call<AppFolder>(api, "GET", `${base}/folders/{folderId}`, { path: { ...d, folderId } }),
    createFolder: (name: string, parentId: number | null) => call<AppFolder>(api, "POST", `${base}/folders`, { path: d, body: { name, parentId } }),
    renameFolder: (folderId: number, name: string) => call<AppFolder>(api, "PUT", `${base}/folders/{folderId}`, { path: { ...d, folderId }, body: { name } }),
    createWorkbook: (name: string, folderId: number | null) => call<AppWorkbook>(api, "POST", `${base}/workbooks`, { path: d, body: { name, folderId } }),
    workbook: (workbookId: number) => call<AppWorkbook>(api, "GET", `${base}/workbooks/{workbookId}`, { path: { ...d, workbookId } }),
    renameWorkbook: (workbookId: number, name: string) =>
      call<AppWorkbook>(api, "PUT", `${base}/workbooks/{workbookId}`, { path: { ...d, workbookId }, body: { name } }),
    /** Adds, replaces and removes fields by key in one write that keeps the fields others wrote meanwhile. */
    changeCalculatedFields: (workbookId: number, calculatedFieldChanges: CalculatedFieldChanges) =>
      call<AppWorkbook>(api, "PUT", `${base}/workbooks/{workbookId}`, { path: { ...d, workbookId }, body: { calculatedFieldChanges } }),
    startingPoints: () => call<AppStartingPoints>(api, "GET", `${base}/app/starting-points`, { path: d }),
    copyDashboard: (publicId: string, input: CopyDashboardInput = {}) =>
      call<AppWorkbook>(api, "POST", `${base}/app/starting-points/dashboards/{publicId}/copy`, { path: { ...d, publicId }, body: input }),
    duplicateWorkbook: (workbookId: number) =>
      call<AppWorkbook>(api, "POST", `${base}/workbooks/{workbookId}/duplicate`, { path: { ...d, workbookId }, body: {} }),
    favorite: (workbookId: number, on: boolean) =>
      call<AppWorkbook>(api, on ? "PUT" : "DELETE", `${base}/workbooks/{workbookId}/favorite`, { path: { ...d, workbookId } }),
    touchRecent: (workbookId: number) => call<null>(api, "PUT", `${base}/app/recents/{workbookId}`, { path: { ...d, workbookId } }),
    reports: (workbookId: number) =>
      call<{ items: Report[] }>(api, "GET", `${base}/app/workbooks/{workbookId}/reports`, { path: { ...d, workbookId } }).then((r) => r.items),
    createReport: (workbookId: number, name: string, init: { kind?: "table" | "vega" | "kpi"; query?: Record<string, unknown> } = {}) =>
      call<Report>(api, "POST", `${base}/app/workbooks/{workbookId}/reports`, { path: { ...d, workbookId }, body: { name, kind: "table", ...init } }),
    saveReport: (publicId: string, input: ReportInput) =>
      call<Report>(api, "PUT", `${base}/reports/by-public-id/{publicId}`, { path: { ...d, publicId }, body: input }),
    renameReport: (publicId: string, name: string) =>
      call<Report>(api, "PUT", `${base}/reports/by-public-id/{publicId}`, { path: { ...d, publicId }, body: { name } }),
    deleteWorkbook: (workbookId: number) => call<null>(api, "DELETE", `${base}/workbooks/{workbookId}`, { path: { ...d, workbookId } }),
    deleteReport: (reportId: number) => call<null>(api, "DELETE", `${base}/reports/{reportId}`, { path: { ...d, reportId } }),
    saveDraft: (workbookId: number, config: DashboardConfig) =>
      call<AppWorkbook>(api, "PUT", `${base}/workbooks/{workbookId}/dashboard/draft`, { path: { ...d, workbookId }, body: config }),
    publish: (workbookId: number) => call<Dashboard>(api, "POST", `${base}/workbooks/{workbookId}/dashboard/publish`, { path: { ...d, workbookId } }),
    bulkDelete: (items: WorkspaceItemRef[]) => call<BulkResult>(api, "POST", `${base}/workspace/bulk-delete`, { path: d, body: { items } }),
    bulkMove: (items: WorkspaceItemRef[], targetFolderId: number | null) =>
      call<BulkResult>(api, "POST", `${base}/workspace/bulk-move`, { path: d, body: { items, targetFolderId } }),
    shares: (type: "folder" | "workbook" | "report", id: number) =>
      call<AppShares>(api, "GET", `${base}/app/shares/{objectType}/{objectId}`, { path: { ...d, objectType: type, objectId: id } }),
    setShares: (type: "folder" | "workbook" | "report", id: number, shared: ShareTarget[]) =>
      call<AppShares>(api, "PUT", `${base}/app/shares/{objectType}/{objectId}`, { path: { ...d, objectType: type, objectId: id }, body: { shared } }),
    meta: () => call<{ sources: MetaSource[] }>(api, "GET", `${base}/meta`, { path: d }),
    sql: (query: SemanticQuery) => call<{ sql: string; params?: unknown[] }>(api, "POST", `${base}/query/sql`, { path: d, body: { query } }),
    values: (member: string, search: string) =>
      call<{ values: unknown[] }>(api, "POST", `${base}/query/values`, { path: d, body: { member, ...(search ? { search } : {}), limit: 100 } }).then(
        (r) => r.values,
      ),
  };
}
export type AppApi = ReturnType<typeof createAppApi>;

export { appPath, parseAppPath, type AppRoute } from "../../shell/app-routes";
