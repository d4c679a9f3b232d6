/**
 * Dashboard chat: the questions are about the dashboard in view. Its scope is the views its
 * widgets query and the viewer's current filters, which every query of the turn carries.
 */
import { parseFilterParameter, toQueryFilter } from "../../../schema/dashboard-filters";
import type { QueryFilter } from "../../../schema/semantic-query";
import type { AppDeps, Principal } from "../../context";
import { notFound } from "../../domain/errors";
import { resolveViewableDashboard } from "../embed-access/service";

export interface ChatScopeInput {
  dashboardPublicId: string;
  filterUrlParameters?: string[];
}

/** Views named by a dashboard's report snapshots (their queries' members). */
export function viewsOfSnapshots(snapshots: unknown): string[] {
  const views = new Set<string>();
  const visit = (v: unknown) => {
    if (typeof v === "string" && /^[_a-zA-Z][_a-zA-Z0-9]*\.[_a-zA-Z][_a-zA-Z0-9]*/.test(v)) views.add(v.split(".")[0]!);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") Object.values(v).forEach(visit);
  };
  for (const s of Array.isArray(snapshots) ? snapshots : []) {
    const q = (s as { meta?: { query?: unknown } | null }).meta?.query;
    if (q && typeof q === "object") {
      const { measures, dimensions, timeDimensions } = q as Record<string, unknown>;
      visit(measures);
      visit(dimensions);
      visit(timeDimensions);
    }
  }
  return [...views];
}

export async function resolveChatScope(
  deps: AppDeps,
  principal: Principal,
  deploymentId: number,
  input: ChatScopeInput,
): Promise<{ views: string[]; filters: QueryFilter[] }> {
  const dashboard = await resolveViewableDashboard(deps.db, principal, input.dashboardPublicId);
  if (dashboard.deploymentId !== deploymentId) throw notFound("Dashboard");
  const views = viewsOfSnapshots(dashboard.reportSnapshots);
  const filters: QueryFilter[] = [];
  for (const p of input.filterUrlParameters ?? []) {
    const parsed = parseFilterParameter(p);
    if (parsed.ok && parsed.filter && views.includes(parsed.member.split(".")[0]!)) filters.push(toQueryFilter(parsed.filter));
  }
  return { views, filters };
}
