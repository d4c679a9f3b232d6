/**
 * Python reports: `python-run` runs the Python of one report of a published dashboard, over
 * the report's query result with the dashboard filters applied, in the Pyodide sandbox.
 * Access is the dashboard's (embed access, workbook access) and the query runs with the
 * viewer's security context (row-level security), exactly as a widget's query does.
 */
import { parseFilterParameter, toQueryFilter, type DashboardFilter } from "../../../schema/dashboard-filters";
import type { ReportSnapshot } from "../../../schema/dashboard";
import type { SemanticQuery } from "../../../schema/semantic-query";
import type { Db } from "../../db/connection";
import type { Principal } from "../../domain/actor";
import { badRequest, DomainError, notFound } from "../../domain/errors";
import type { LoadOptions, QueryEngine } from "../../semantic/query-engine";
import type { SecurityContext } from "../../semantic/security-context";
import { resolveViewableDashboard, securityContextOf } from "../embed-access/service";
import type { PythonOutput, PythonSandbox } from "./python-sandbox";

/** Rows handed to Python at most (the query's own limit applies first). */
export const PYTHON_MAX_INPUT_ROWS = 50_000;

export interface PythonRunInput {
  reportId: number;
  /** Dashboard filters as `f_<view>.<dimension>=<JSON>`, the form of `set-filter`. */
  filters?: string[];
}

/** The Python code of a report snapshot (`meta.python`), or null. */
export function pythonCodeOf(snapshot: Pick<ReportSnapshot, "meta">): string | null {
  const code = (snapshot.meta as { python?: unknown } | null | undefined)?.python;
  return typeof code === "string" && code.trim() ? code : null;
}

function viewOf(member: string): string {
  return member.slice(0, member.indexOf("."));
}

/** The report query with each filter on one of its views added (as the dashboard's widgets do). */
export function applyDashboardFilters(query: SemanticQuery, filters: DashboardFilter[]): SemanticQuery {
  const views = new Set<string>();
  for (const m of [...(query.measures ?? []), ...(query.dimensions ?? [])]) views.add(viewOf(m));
  for (const t of query.timeDimensions ?? []) views.add(viewOf(t.dimension));
  const extra = filters.filter((f) => views.has(viewOf(f.member))).map(toQueryFilter);
  return extra.length ? { ...query, filters: [...(query.filters ?? []), ...extra] } : query;
}

export function parseRunFilters(filters: string[] | undefined): DashboardFilter[] {
  const parsed: DashboardFilter[] = [];
  (filters ?? []).forEach((text, i) => {
    const r = parseFilterParameter(text);
    if (!r.ok) throw badRequest(`Invalid filter: ${r.message}`, [{ path: ["filters", i], message: r.message }]);
    if (r.filter) parsed.push(r.filter);
  });
  return parsed;
}

/**
 * A dashboard holding Python reports is being opened: one sandbox process starts loading now
 * (seconds of interpreter start), so that its first run finds it ready. Nothing runs in it until
 * a run of a viewer allowed to run; the pool's limits hold as for any run.
 */
export function warmPythonFor(sandbox: Pick<PythonSandbox, "warm">, snapshots: Pick<ReportSnapshot, "meta">[]): boolean {
  if (!snapshots.some((s) => pythonCodeOf(s) !== null)) return false;
  void sandbox.warm().catch(() => undefined);
  return true;
}

/** Whose share of the Python pool a run counts against: the embed tenant, an embed creator's tenant, or the platform's users. */
export function pythonTenantOf(principal: Principal): string {
  if (principal.kind === "embed") return `embed:${principal.deploymentId}:${principal.embedTenant ?? ""}`;
  if (principal.creator) return `embed:${principal.creator.deploymentId}:${principal.creator.tenantName}`;
  return "platform";
}

export interface PythonRunDeps {
  db: Db;
  engineFor: (deploymentId: number) => Promise<QueryEngine>;
  sandbox: PythonSandbox;
  queryTimeoutMs?: number;
  cache?: ReturnType<typeof createPythonResultCache>;
}

export async function runPythonReport(
  deps: PythonRunDeps,
  principal: Principal,
  publicId: string,
  input: PythonRunInput,
  signal?: AbortSignal,
): Promise<PythonOutput> {
  const dashboard = await resolveViewableDashboard(deps.db, principal, publicId);
  // Only the dashboard's own reports: another workbook's report is not found here.
  const snapshot = (dashboard.reportSnapshots as ReportSnapshot[]).find((s) => s.reportId === input.reportId);
  if (!snapshot) throw notFound("Report");
  const code = pythonCodeOf(snapshot);
  if (!code) throw badRequest("This report has no Python code", [{ path: ["reportId"], message: "the report's meta.python is empty" }]);
  const filters = parseRunFilters(input.filters);
  const securityContext = await securityContextOf(principal, deps.db);
  const key = JSON.stringify([dashboard.versionId, snapshot.reportId, [...(input.filters ?? [])].sort(), securityContext]);
  const tenant = pythonTenantOf(principal);
  const compute = () => execute(deps, dashboard.deploymentId, snapshot, code, filters, securityContext, tenant, signal);
  return deps.cache ? deps.cache.get(key, compute) : compute();
}

async function execute(
  deps: PythonRunDeps,
  deploymentId: number,
  snapshot: ReportSnapshot,
  code: string,
  filters: DashboardFilter[],
  securityContext: SecurityContext,
  tenant: string,
  signal: AbortSignal | undefined,
): Promise<PythonOutput> {
  let rows: Record<string, unknown>[] = [];
  let columns: string[] = [];
  const query = (snapshot.meta as { query?: unknown } | null)?.query;
  if (query && typeof query === "object") {
    const engine = await deps.engineFor(deploymentId);
    const result = await engine.load(applyDashboardFilters(query as SemanticQuery, filters), {
      securityContext,
      signal,
      timeoutMs: deps.queryTimeoutMs,
      fillMissingRows: (snapshot.fillMissingRows ?? null) as LoadOptions["fillMissingRows"],
      periodComparisons: (snapshot.periodComparisons ?? null) as LoadOptions["periodComparisons"],
    });
    rows = (result.data as Record<string, unknown>[]).slice(0, PYTHON_MAX_INPUT_ROWS);
    columns = rows[0] ? Object.keys(rows[0]) : [];
  }

  const run = await deps.sandbox.run({ code, rows, columns }, { tenant, signal });
  if (!run.ok) {
    throw new DomainError("python_failed", run.message, { details: { reason: run.reason, stdout: run.stdout } });
  }
  return run.output;
}

/**
 * Answers of python-run for a minute, by dashboard version, report, filters and the viewer's
 * security context: each view of a dashboard would otherwise start an interpreter. A report's
 * code that reads the clock or randomness sees its answer reused within that minute.
 */
export function createPythonResultCache(opts: { ttlMs?: number; maxEntries?: number } = {}) {
  const ttlMs = opts.ttlMs ?? 60_000;
  const maxEntries = opts.maxEntries ?? 500;
  const entries = new Map<string, { at: number; value: Promise<PythonOutput> }>();
  return {
    get(key: string, compute: () => Promise<PythonOutput>): Promise<PythonOutput> {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < ttlMs) return hit.value;
      const value = compute();
      entries.set(key, { at: now, value });
      // Failures are not kept.
      value.catch(() => entries.get(key)?.value === value && entries.delete(key));
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return value;
    },
  };
}
