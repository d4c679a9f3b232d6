/**
 * Typed calls of the platform API the embed makes. Each takes the ApiClient (token or
 * cookie) and an optional AbortSignal; the shapes follow the server's routes.
 */
import type { EmbedTheme } from "../../protocol";
import type { Dashboard, PeriodComparison } from "../../schema/dashboard";
import type { QueryFilter } from "../../schema/dashboard-filters";
import type { ApiClient } from "./api";

export interface SessionTokenResponse {
  token: string;
  /** ISO timestamp or epoch milliseconds. */
  expiresAt: string | number;
  deploymentId: number;
  embedTenant: string | null;
}

export interface EmbedViewerSettings {
  allowAi?: boolean;
  showDashboardChat?: boolean;
  showWorkbookChat?: boolean;
  showAiWidgets?: boolean;
  locale?: string;
  timezone?: string;
}

export interface EmbedViewer {
  mode: "signed" | "private";
  deploymentId: number;
  embedTenant: string | null;
  externalId: string | null;
  settings: EmbedViewerSettings | null;
  embedTheme: EmbedTheme | null;
  expiresAt: string | number | null;
}

export interface EmbedDashboardResponse {
  dashboard: Dashboard;
  viewer: EmbedViewer;
}

export type QueryOrder = Record<string, "asc" | "desc"> | [string, "asc" | "desc"][];

/** The semantic-layer query JSON (decisions.md "Semantic layer"). */
export interface SemanticQuery {
  measures?: string[];
  dimensions?: string[];
  timeDimensions?: { dimension: string; granularity?: string; dateRange?: string | [string, string] }[];
  filters?: QueryFilter[];
  order?: QueryOrder;
  limit?: number;
  offset?: number;
  timezone?: string;
}

export interface MemberAnnotation {
  title?: string;
  shortTitle?: string;
  type?: string;
  format?: string;
}

export interface QueryAnnotation {
  measures: Record<string, MemberAnnotation>;
  dimensions: Record<string, MemberAnnotation>;
  timeDimensions: Record<string, MemberAnnotation>;
}

export interface QueryResult {
  data: Record<string, unknown>[];
  annotation: QueryAnnotation;
}

export interface QueryRequest {
  query: SemanticQuery;
  fillMissingRows?: { member: string; excludedDimensions?: string[] | null } | null;
  periodComparisons?: PeriodComparison[] | null;
  cache?: "bypass";
}

export interface WorkbookSummary {
  id: number;
  name?: string | null;
  title?: string | null;
  slug?: string | null;
  description?: string | null;
  updatedAt?: string | null;
  dashboards?: { publicId: string; title?: string | null }[] | null;
}

export interface DeploymentMeta {
  views?: MetaView[];
  cubes?: MetaView[];
}

export interface MetaView {
  name: string;
  title?: string | null;
  description?: string | null;
  measures?: { name: string; title?: string | null; type?: string }[];
  dimensions?: { name: string; title?: string | null; type?: string }[];
}

export function exchangeEmbedSession(api: ApiClient, sessionId: string): Promise<SessionTokenResponse> {
  return api.post("/embed/session/token", { sessionId });
}

export function loginWithPassword(api: ApiClient, email: string, password: string): Promise<unknown> {
  return api.post("/auth/login", { email, password });
}

export function fetchEmbedDashboard(api: ApiClient, publicId: string, signal?: AbortSignal): Promise<EmbedDashboardResponse> {
  return api.get(`/embed/dashboard/${encodeURIComponent(publicId)}`, signal);
}

export function runQuery(api: ApiClient, deploymentId: number, request: QueryRequest, signal?: AbortSignal): Promise<QueryResult> {
  return api.post(`/deployments/${deploymentId}/query`, request, signal);
}

export function fetchDistinctValues(
  api: ApiClient,
  deploymentId: number,
  body: { member: string; search?: string; limit?: number },
  signal?: AbortSignal,
): Promise<{ values: unknown[] }> {
  return api.post(`/deployments/${deploymentId}/query/values`, body, signal);
}

/** Lists accept both `items` and the deprecated `data`. */
export async function listDeploymentWorkbooks(api: ApiClient, deploymentId: number, signal?: AbortSignal): Promise<WorkbookSummary[]> {
  const page = await api.get<{ items?: WorkbookSummary[]; data?: WorkbookSummary[] }>(`/deployments/${deploymentId}/workbooks?first=100`, signal);
  return page.items ?? page.data ?? [];
}

export function fetchDeploymentMeta(api: ApiClient, deploymentId: number, signal?: AbortSignal): Promise<DeploymentMeta> {
  return api.get(`/deployments/${deploymentId}/meta`, signal);
}
