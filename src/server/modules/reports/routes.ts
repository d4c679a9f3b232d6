import { createRoute, z } from "@hono/zod-openapi";
import { listResponse, QueryInt, SafeText } from "../../../schema/common";
import { ConnectWorkbookInput, Report, ReportInput, ReportSortBy } from "../../../schema/report";
import { requireActor } from "../../http/auth";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { decodeCursor, DEFAULT_PAGE_SIZE } from "../../domain/pagination";
import { connectWorkbook, deleteReport, getReport, isReportCursor, listReports, upsertReportByPublicId } from "./service";

const tags = ["Reports"];
const ReportParams = z.object({ deploymentId: IdParam, reportId: IdParam });
const ReportsListResponse = listResponse(Report, "ReportsListResponse");

const upsert = createRoute({
  operationId: "upsertReportByPublicId",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}",
  tags,
  summary: "Create or update a report by public id",
  description:
    "Creates the report with this public id (12 characters [0-9A-Za-z]) or updates it: only the fields sent change, `meta` is merged. " +
    "A public id that belongs to a report of another deployment is a permanent 409 `public_id_taken`.",
  security,
  request: { params: z.object({ deploymentId: IdParam, publicId: SafeText.max(200) }), ...jsonBody(ReportInput) },
  responses: { 200: jsonContent(Report, "The report."), ...commonErrors, ...notFoundError, ...conflictError },
});

const list = createRoute({
  operationId: "listReports",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/reports",
  tags,
  summary: "List reports",
  description: "Cursor pagination (`first`, `after`) is unavailable when sorting by `lastViewedAt`: that list comes whole (at most 1000).",
  security,
  request: {
    params: z.object({ deploymentId: IdParam }),
    query: z.object({
      first: QueryInt(1, 100).optional(),
      after: SafeText.min(1).max(400).optional(),
      sortBy: ReportSortBy.optional().meta({ description: "name (A-Z, default), createdAt, updatedAt, lastViewedAt (newest first)." }),
      search: SafeText.max(200).optional(),
      folderId: z.union([IdParam, z.literal("root")]).optional(),
      externalWorkbookId: SafeText.max(255).optional(),
    }),
  },
  responses: { 200: jsonContent(ReportsListResponse, "A page of reports."), ...commonErrors, ...notFoundError },
});

const get = createRoute({
  operationId: "getReport",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/reports/{reportId}",
  tags,
  summary: "Read a report",
  security,
  request: { params: ReportParams },
  responses: { 200: jsonContent(Report, "The report."), ...commonErrors, ...notFoundError },
});

const remove = createRoute({
  operationId: "deleteReport",
  method: "delete",
  path: "/api/v1/deployments/{deploymentId}/reports/{reportId}",
  tags,
  summary: "Delete a report (manage access)",
  security,
  request: { params: ReportParams },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

const connect = createRoute({
  operationId: "connectReportWorkbook",
  method: "put",
  path: "/api/v1/deployments/{deploymentId}/reports/{reportId}/connect-workbook",
  tags,
  summary: "Link a report to the caller's spreadsheet (read access suffices)",
  security,
  request: { params: ReportParams, ...jsonBody(ConnectWorkbookInput) },
  responses: { 200: jsonContent(Report, "The report."), ...commonErrors, ...notFoundError },
});

export function registerReportRoutes(app: Router) {
  app.openapi(upsert, async (c) => {
    const { deploymentId, publicId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await upsertReportByPublicId(c.get("deps").db, deploymentId, publicId, c.req.valid("json"), actor), 200);
  });

  app.openapi(list, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    const q = c.req.valid("query");
    const sortBy = q.sortBy ?? "name";
    const after = q.after && sortBy !== "lastViewedAt" ? decodeCursor(q.after, isReportCursor) : undefined;
    const first = q.first ?? DEFAULT_PAGE_SIZE;
    const r = await listReports(
      c.get("deps").db,
      deploymentId,
      {
        first,
        after,
        paged: q.first !== undefined || q.after !== undefined,
        sortBy,
        search: q.search,
        folderId: q.folderId === "root" ? null : q.folderId,
        externalWorkbookId: q.externalWorkbookId,
      },
      actor,
    );
    return c.json(
      {
        items: r.items,
        pageInfo: {
          hasNextPage: r.hasNextPage,
          hasPreviousPage: after !== undefined,
          ...(r.cursors ? { startCursor: r.cursors.start, endCursor: r.cursors.end } : {}),
        },
        data: r.items,
        count: r.total,
      },
      200,
    );
  });

  app.openapi(get, async (c) => {
    const { deploymentId, reportId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await getReport(c.get("deps").db, deploymentId, reportId, actor), 200);
  });

  app.openapi(remove, async (c) => {
    const { deploymentId, reportId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    await deleteReport(c.get("deps").db, deploymentId, reportId, actor);
    return c.body(null, 204);
  });

  app.openapi(connect, async (c) => {
    const { deploymentId, reportId } = c.req.valid("param");
    const actor = await requireActor(c, deploymentId);
    return c.json(await connectWorkbook(c.get("deps").db, deploymentId, reportId, c.req.valid("json"), actor), 200);
  });
}
