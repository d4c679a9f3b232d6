/** What the report surface's data loader (src/embed/surfaces/report/report-data.ts) hands the surface. */
import type { components } from "../../client/generated/schema";
import type { EmbedDashboardResponse } from "./platform-api";

/** The API's answer, its dashboard and viewer as the embed's widgets read them (the schema's Dashboard). */
export type EmbedReportResponse = Omit<components["schemas"]["EmbedReportResponse"], "dashboard" | "viewer" | "contentLocale"> & EmbedDashboardResponse;

export interface ReportData {
  /** The report the loader fetched (its route as JSON): the one of the embed's URL. */
  key: string;
  definition: Promise<EmbedReportResponse>;
}
