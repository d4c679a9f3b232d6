/** The creator app's calls to the platform: the workspace, workbook, report, dashboard and app operations. */
import type { DashboardConfig } from "../../../schema/dashboard";
import type { CopyDashboardInput, CreateAppReportInput, ShareTarget } from "../../../schema/creator-app";
import type { ReportInput } from "../../../schema/report";
import type { UpdateWorkbookInput, WorkspaceItem, WorkspaceItemRef } from "../../../schema/workspace";
import { dataOf, type EmbedApi } from "../../shell/api";
import type { SemanticQuery } from "../../shell/platform-api";

/** `calculatedFieldChanges` of a workbook update: keys removed, then fields set. */
export type CalculatedFieldChanges = NonNullable<UpdateWorkbookInput["calculatedFieldChanges"]>;

export function createAppApi(api: EmbedApi, deploymentId: number) {
  const c = api.client;
  const d = { deploymentId };
  const workbook = (workbookId: number) => ({ params: { path: { ...d, workbookId } } });
  const byPublicId = (publicId: string) => ({ params: { path: { ...d, publicId } } });
  const shared = (objectType: "folder" | "workbook" | "report", objectId: number) => ({ params: { path: { ...d, objectType, objectId } } });
  return {
    deploymentId,
    home: () => dataOf(c.GET("/api/v1/deployments/{deploymentId}/app/home", { params: { path: d } })),
    appConfig: () => dataOf(c.GET("/api/v1/app-config")),
    list: async (folderId: number | null) => {
      const items: WorkspaceItem[] = [];
      let after: string | undefined;
      for (let page = 0; page < 20; page++) {
        const res = await dataOf(
          c.GET("/api/v1/deployments/{deploymentId}/workspace", {
            params: { path: d, query: { first: 100, ...(folderId !== null ? { folderId } : {}), ...(after ? { after } : {}) } },
          }),
        );
        items.push(...res.items);
        if (!res.pageInfo.hasNextPage || !res.pageInfo.endCursor) break;
        after = res.pageInfo.endCursor;
      }
      return items;
    },
    search: (q: string) => dataOf(c.GET("/api/v1/deployments/{deploymentId}/app/search", { params: { path: d, query: { q } } })).then((r) => r.items),
    folder: (folderId: number) => dataOf(c.GET("/api/v1/deployments/{deploymentId}/folders/{folderId}", { params: { path: { ...d, folderId } } })),
    createFolder: (name: string, parentId: number | null) =>
      dataOf(c.POST("/api/v1/deployments/{deploymentId}/folders", { params: { path: d }, body: { name, parentId } })),
    renameFolder: (folderId: number, name: string) =>
      dataOf(c.PUT("/api/v1/deployments/{deploymentId}/folders/{folderId}", { params: { path: { ...d, folderId } }, body: { name } })),
    createWorkbook: (name: string, folderId: number | null) =>
      dataOf(c.POST("/api/v1/deployments/{deploymentId}/workbooks", { params: { path: d }, body: { name, folderId } })),
    workbook: (workbookId: number) => dataOf(c.GET("/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", workbook(workbookId))),
    renameWorkbook: (workbookId: number, name: string) =>
      dataOf(c.PUT("/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", { ...workbook(workbookId), body: { name } })),
    /** Adds, replaces and removes fields by key in one write that keeps the fields others wrote meanwhile. */
    changeCalculatedFields: (workbookId: number, calculatedFieldChanges: CalculatedFieldChanges) =>
      dataOf(c.PUT("/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", { ...workbook(workbookId), body: { calculatedFieldChanges } })),
    /** Published dashboards to start from, titled in `locale` where the model translates them. */
    startingPoints: (locale?: string) =>
      dataOf(c.GET("/api/v1/deployments/{deploymentId}/app/starting-points", { params: { path: d, query: locale ? { locale } : {} } })),
    copyDashboard: (publicId: string, input: CopyDashboardInput = {}) =>
      dataOf(c.POST("/api/v1/deployments/{deploymentId}/app/starting-points/dashboards/{publicId}/copy", { ...byPublicId(publicId), body: input })),
    duplicateWorkbook: (workbookId: number) =>
      dataOf(c.POST("/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate", { ...workbook(workbookId), body: {} })),
    favorite: (workbookId: number, on: boolean) =>
      dataOf(
        on
          ? c.PUT("/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/favorite", workbook(workbookId))
          : c.DELETE("/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/favorite", workbook(workbookId)),
      ),
    touchRecent: (workbookId: number) => dataOf(c.PUT("/api/v1/deployments/{deploymentId}/app/recents/{workbookId}", workbook(workbookId))),
    reports: (workbookId: number) =>
      dataOf(c.GET("/api/v1/deployments/{deploymentId}/app/workbooks/{workbookId}/reports", workbook(workbookId))).then((r) => r.items),
    createReport: (workbookId: number, name: string, init: Omit<CreateAppReportInput, "name"> = {}) =>
      dataOf(
        c.POST("/api/v1/deployments/{deploymentId}/app/workbooks/{workbookId}/reports", { ...workbook(workbookId), body: { name, kind: "table", ...init } }),
      ),
    saveReport: (publicId: string, input: ReportInput) =>
      dataOf(c.PUT("/api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}", { ...byPublicId(publicId), body: input })),
    renameReport: (publicId: string, name: string) =>
      dataOf(c.PUT("/api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}", { ...byPublicId(publicId), body: { name } })),
    deleteWorkbook: (workbookId: number) => dataOf(c.DELETE("/api/v1/deployments/{deploymentId}/workbooks/{workbookId}", workbook(workbookId))),
    deleteReport: (reportId: number) => dataOf(c.DELETE("/api/v1/deployments/{deploymentId}/reports/{reportId}", { params: { path: { ...d, reportId } } })),
    saveDraft: (workbookId: number, config: DashboardConfig) =>
      dataOf(c.PUT("/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard/draft", { ...workbook(workbookId), body: config })),
    publish: (workbookId: number) => dataOf(c.POST("/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard/publish", workbook(workbookId))),
    bulkDelete: (items: WorkspaceItemRef[]) =>
      dataOf(c.POST("/api/v1/deployments/{deploymentId}/workspace/bulk-delete", { params: { path: d }, body: { items } })),
    bulkMove: (items: WorkspaceItemRef[], targetFolderId: number | null) =>
      dataOf(c.POST("/api/v1/deployments/{deploymentId}/workspace/bulk-move", { params: { path: d }, body: { items, targetFolderId } })),
    shares: (type: "folder" | "workbook" | "report", id: number) =>
      dataOf(c.GET("/api/v1/deployments/{deploymentId}/app/shares/{objectType}/{objectId}", shared(type, id))),
    setShares: (type: "folder" | "workbook" | "report", id: number, targets: ShareTarget[]) =>
      dataOf(c.PUT("/api/v1/deployments/{deploymentId}/app/shares/{objectType}/{objectId}", { ...shared(type, id), body: { shared: targets } })),
    /** Views and members, titled in `locale` where the model translates them. */
    meta: (locale?: string) => dataOf(c.GET("/api/v1/deployments/{deploymentId}/meta", { params: { path: d, query: locale ? { locale } : {} } })),
    sql: (query: SemanticQuery) => dataOf(c.POST("/api/v1/deployments/{deploymentId}/query/sql", { params: { path: d }, body: { query } })),
    values: (member: string, search: string) =>
      dataOf(
        c.POST("/api/v1/deployments/{deploymentId}/query/values", { params: { path: d }, body: { member, ...(search ? { search } : {}), limit: 100 } }),
      ).then((r) => r.values),
  };
}
export type AppApi = ReturnType<typeof createAppApi>;

/** A workbook as the app reads it (the API's own type). */
export type AppWorkbook = Awaited<ReturnType<AppApi["workbook"]>>;
/** A folder as the app reads it. */
export type AppFolder = Awaited<ReturnType<AppApi["folder"]>>;
/** What a bulk delete or move did, item by item. */
export type BulkResult = Awaited<ReturnType<AppApi["bulkDelete"]>>;
/** A view or cube of the model as the viewer may query it, and its members. */
export type MetaSource = Awaited<ReturnType<AppApi["meta"]>>["sources"][number];
export type MetaMember = MetaSource["measures"][number];

export { appPath, parseAppPath, type AppRoute } from "../../shell/app-routes";
