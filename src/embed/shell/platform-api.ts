/**
 * Calls of the platform API the embed makes outside React's data hooks (session exchange,
 * login, widget queries): each goes through the typed client, operations checked against
 * the generated OpenAPI paths, and takes an optional AbortSignal.
 */
import type { MemberAnnotation, QueryAnnotation, QueryResult, SemanticQuery } from "../../schema/semantic-query";
import type { Dashboard, PeriodComparison } from "../../schema/dashboard";
import type { components } from "../../client/generated/schema";
import type { ExportFormat } from "../../schema/export-formats";
import { dataOf, type EmbedApi } from "./api";

type PlatformQueryInput = components["schemas"]["QueryInput"];

export interface SessionTokenResponse {
  token: string;
  /** ISO timestamp or epoch milliseconds. */
  expiresAt: string | number;
  deploymentId: number;
  embedTenant: string | null;
  /** The export formats the session grants. */
  exportFormats?: ExportFormat[];
}

/** What the platform says of the viewer of a dashboard or report (`EmbedViewer` of the API). */
export type EmbedViewer = components["schemas"]["EmbedViewer"];
/** The viewer's session settings, as the platform gives them. */
export type EmbedViewerSettings = EmbedViewer["settings"];

/** `GET /api/v1/embed/dashboard/{publicId}`: the API's answer, its dashboard typed by `src/schema`. */
export type EmbedDashboardResponse = Omit<components["schemas"]["EmbedDashboardResponse"], "dashboard"> & { dashboard: Dashboard };

export type QueryOrder = NonNullable<SemanticQuery["order"]>;

/** The semantic-layer query JSON: the schema's (decisions.md "Semantic layer"). */
export type { SemanticQuery };

/** Per-column titles, types and formats of a result: the schema's type (`export/result-columns.ts` reads every group). */
export type { MemberAnnotation, QueryAnnotation };

/** The answer of `POST …/query`, as the schema declares it. */
export type { QueryResult };

export interface QueryRequest {
  query: SemanticQuery;
  fillMissingRows?: { member: string; excludedDimensions?: string[] | null } | null;
  periodComparisons?: PeriodComparison[] | null;
  cache?: "bypass";
  /** The viewer's locale: the answer's member titles and `valueLabels` come in it (docs/translation.md). */
  locale?: string;
  /** The rows are for a file in this format; the server refuses a format the session does not grant. */
  export?: PlatformQueryInput["export"];
}

export function exchangeEmbedSession(api: EmbedApi, sessionId: string): Promise<SessionTokenResponse> {
  return dataOf(api.client.POST("/api/v1/embed/session/token", { body: { sessionId } }));
}

/**
 * Asks the platform whether this viewer may export `format` (PNG and PDF, drawn in the browser,
 * ask before they draw). Throws the ApiError of a refusal (403 `export_format_not_allowed`).
 */
export async function authorizeExport(api: EmbedApi, body: components["schemas"]["EmbedExportInput"]): Promise<void> {
  await dataOf(api.client.POST("/api/v1/embed/exports", { body }));
}

export function runQuery(api: EmbedApi, deploymentId: number, request: QueryRequest, signal?: AbortSignal): Promise<QueryResult> {
  return dataOf(
    api.client.POST("/api/v1/deployments/{deploymentId}/query", {
      params: { path: { deploymentId } },
      // The embed's query type is the stricter form of the API's (typed filters and order).
      body: request as PlatformQueryInput,
      signal,
    }),
  );
}

export async function fetchDistinctValues(
  api: EmbedApi,
  deploymentId: number,
  body: { member: string; search?: string; limit?: number; locale?: string },
  signal?: AbortSignal,
): Promise<{ values: unknown[]; labels?: Record<string, string> }> {
  return dataOf(api.client.POST("/api/v1/deployments/{deploymentId}/query/values", { params: { path: { deploymentId } }, body, signal }));
}
