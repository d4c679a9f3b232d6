/** What the dashboard surface's data loader (src/embed/surfaces/dashboard/dashboard-data.ts) hands the surface. */
import type { EmbedDashboardResponse, QueryRequest, QueryResult } from "./platform-api";

export interface DashboardData {
  /** The dashboard the loader fetched: the one of the embed's URL. */
  publicId: string;
  /** The dashboard and its viewer; when it resolves, the store is set up for it (filter controls, session settings). */
  definition: Promise<EmbedDashboardResponse>;
  /**
   * The answer to a widget request the loader sent ahead of the widget, once (a later call
   * for the same request gets null, so a refresh queries again). Resolves to null when the
   * loader could not get it: the widget then asks for itself.
   */
  takeResult(request: QueryRequest): Promise<QueryResult | null> | null;
}
