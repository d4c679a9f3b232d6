import { isDeepStrictEqual } from "node:util";
import type { SvcPlatformClient } from "../client";
import type { Report } from "../schema/report";
import type { Workbook } from "../schema/workbook";
import { callApi, CliError, listAll } from "./platform-calls";
import { mapWidgetReports, widgetReportRefs, type FileProblem, type WorkbookFile, type WorkbookFileReport } from "./workbook-file";

/** What happened (or, with --dry-run, would happen) to one item. */
export type ItemStatus = "created" | "updated" | "unchanged" | "published" | "failed" | "skipped";

/** One changed leaf between the server's state and the file. */
export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

export interface ItemOutcome {
  kind: "report" | "workbook" | "publish";
  key: string;
  status: ItemStatus;
  changes?: FieldChange[];
  error?: string;
}

export interface FileOutcome {
  file: string;
  slug: string;
  deploymentId: number;
  items: ItemOutcome[];
  ok: boolean;
}

/** Reads the platform needs for a run, shared by every file of one deployment. */
interface DeploymentState {
  reports: Map<string, Report>;
  publicIdOf: Map<number, string>;
  workbooks: Workbook[];
}

interface Plan {
  file: string;
  workbook: WorkbookFile;
  deploymentId: number;
  current: Workbook | null;
  reports: { item: WorkbookFileReport; status: "created" | "updated" | "unchanged"; changes: FieldChange[] }[];
  workbookStatus: "created" | "updated" | "unchanged";
  workbookChanges: FieldChange[];
  publishNeeded: boolean;
}

export interface ApplyOptions {
  client: SvcPlatformClient;
  baseUrl: string;
  /** Overrides the files' deploymentId. */
  deploymentId?: number;
  /** Publish every workbook's dashboard after applying, whatever the files say. */
  publish?: boolean;
  dryRun?: boolean;
  /** Called before each file is applied (progress for long runs). */
  onProgress?: (index: number, total: number, file: string) => void;
}

/** `problems` non-empty: the pre-flight checks failed and nothing was sent. */
export interface ApplyResult {
  ok: boolean;
  files: FileOutcome[];
  problems: FileProblem[];
}

/**
 * Applies workbook files: reads everything first and checks that every report a dashboard
 * names exists (in the file or on the server) — nothing is written when a check fails.
 * Then, file by file: reports by public id, the workbook by slug, and the publish. A failure
 * stops that file (its later items are `skipped`) and the run goes on with the next file.
 */
export async function applyWorkbookFiles(loaded: { file: string; workbook: WorkbookFile }[], opts: ApplyOptions): Promise<ApplyResult> {
  const { client, baseUrl } = opts;
  const states = new Map<number, DeploymentState>();
  let defaultDeployment: number | undefined;
  const problems: FileProblem[] = [];
  const plans: Plan[] = [];

  for (const { file, workbook } of loaded) {
    let deploymentId = opts.deploymentId ?? workbook.deploymentId;
    if (deploymentId === undefined) {
      defaultDeployment ??= await onlyDeployment(client, baseUrl);
      deploymentId = defaultDeployment;
    }
    let state = states.get(deploymentId);
    if (!state) {
      state = await readDeployment(client, baseUrl, deploymentId);
      states.set(deploymentId, state);
    }
    const inFile = new Set(workbook.reports.map((r) => r.publicId));
    for (const ref of widgetReportRefs(workbook.dashboard)) {
      const publicId = String(ref.value);
      if (!inFile.has(publicId) && !state.reports.has(publicId)) {
        problems.push({
          file,
          path: ["dashboard", ...ref.path].join("."),
          message: `report ${publicId} does not exist in deployment ${deploymentId} and is not in the file`,
        });
      }
    }
    plans.push(planFile(file, workbook, deploymentId, state));
  }
  if (problems.length) return { ok: false, problems, files: [] };

  const outcomes: FileOutcome[] = [];
  for (const [index, plan] of plans.entries()) {
    opts.onProgress?.(index + 1, plans.length, plan.file);
    outcomes.push(opts.dryRun ? dryRunOutcome(plan, opts.publish) : await executePlan(plan, opts, states.get(plan.deploymentId)!));
  }
  return { ok: outcomes.every((o) => o.ok), files: outcomes, problems: [] };
}

async function onlyDeployment(client: SvcPlatformClient, baseUrl: string): Promise<number> {
  const deployments = await listAll<{ id: number; name: string }>(client, baseUrl, "/api/v1/deployments", {});
  if (deployments.length === 1) return deployments[0]!.id;
  const names = deployments.map((d) => `${d.id} (${d.name})`).join(", ");
  throw new CliError(`name the deployment with --deployment or deploymentId in the file; the platform has ${deployments.length ? names : "no deployment"}`);
}

async function readDeployment(client: SvcPlatformClient, baseUrl: string, deploymentId: number): Promise<DeploymentState> {
  const params = { path: { deploymentId } };
  const [reports, workbooks] = await Promise.all([
    listAll<Report>(client, baseUrl, "/api/v1/deployments/{deploymentId}/reports", params),
    listAll<Workbook>(client, baseUrl, "/api/v1/deployments/{deploymentId}/workbooks", params),
  ]);
  return {
    reports: new Map(reports.map((r) => [r.publicId, r])),
    publicIdOf: new Map(reports.map((r) => [r.id, r.publicId])),
    workbooks,
  };
}

const REPORT_FIELDS = [
  "name",
  "title",
  "description",
  "kind",
  "query",
  "sqlQuery",
  "spec",
  "meta",
  "fillMissingRows",
  "periodComparisons",
  "preferences",
] as const;

function planFile(file: string, workbook: WorkbookFile, deploymentId: number, state: DeploymentState): Plan {
  const reports = workbook.reports.map((item) => {
    const current = state.reports.get(item.publicId);
    if (!current) return { item, status: "created" as const, changes: [] };
    const changes = REPORT_FIELDS.flatMap((f) => (item[f] === undefined ? [] : diff(current[f] ?? null, item[f] ?? null, f)));
    return { item, status: changes.length ? ("updated" as const) : ("unchanged" as const), changes };
  });
  const current = state.workbooks.find((w) => w.slug === workbook.slug) ?? null;
  const workbookChanges: FieldChange[] = [];
  if (current) {
    workbookChanges.push(...diff(current.name, workbook.name, "name"));
    if (workbook.folderId !== undefined) workbookChanges.push(...diff(current.folderId ?? null, workbook.folderId, "folderId"));
    for (const [key, value] of Object.entries(workbook.meta ?? {})) workbookChanges.push(...diff(current.meta?.[key] ?? null, value, `meta.${key}`));
    if (workbook.dashboard !== undefined) {
      const currentDraft = current.meta?.dashboardDraft ? toPublicIds(current.meta.dashboardDraft, state) : null;
      workbookChanges.push(...diff(currentDraft, workbook.dashboard, "dashboard"));
    }
  }
  const workbookStatus = !current ? "created" : workbookChanges.length ? "updated" : "unchanged";
  const published = current?.publishedDashboard ?? null;
  const publishNeeded =
    !published ||
    published.status !== "published" ||
    workbookStatus !== "unchanged" ||
    reports.some((r) => r.status !== "unchanged") ||
    !isDeepStrictEqual(normalize(published.config), normalize(current?.meta?.dashboardDraft ?? null));
  return { file, workbook, deploymentId, current, reports, workbookStatus, workbookChanges, publishNeeded };
}

function dryRunOutcome(plan: Plan, publishOverride?: boolean): FileOutcome {
  const items: ItemOutcome[] = plan.reports.map((r) => ({ kind: "report", key: r.item.publicId, status: r.status, changes: r.changes }));
  items.push({ kind: "workbook", key: plan.workbook.slug, status: plan.workbookStatus, changes: plan.workbookChanges });
  if (publishOverride ?? plan.workbook.publish)
    items.push({ kind: "publish", key: plan.workbook.slug, status: plan.publishNeeded ? "published" : "unchanged" });
  return { file: plan.file, slug: plan.workbook.slug, deploymentId: plan.deploymentId, items, ok: true };
}

async function executePlan(plan: Plan, opts: ApplyOptions, state: DeploymentState): Promise<FileOutcome> {
  const { client, baseUrl } = opts;
  const { deploymentId, workbook } = plan;
  const items: ItemOutcome[] = [];
  const pending: { kind: ItemOutcome["kind"]; key: string }[] = [
    ...plan.reports.map((r) => ({ kind: "report" as const, key: r.item.publicId })),
    { kind: "workbook", key: workbook.slug },
    ...((opts.publish ?? workbook.publish) ? [{ kind: "publish" as const, key: workbook.slug }] : []),
  ];
  const fail = (err: unknown) => {
    const [failed, ...rest] = pending.splice(0);
    items.push({ ...failed!, status: "failed", error: err instanceof Error ? err.message : String(err) });
    for (const item of rest) items.push({ ...item, status: "skipped" });
    return { file: plan.file, slug: workbook.slug, deploymentId, items, ok: false };
  };
  try {
    for (const r of plan.reports) {
      if (r.status !== "unchanged") {
        const { publicId, ...body } = r.item;
        const saved = await callApi<Report>(
          client,
          baseUrl,
          "put",
          "/api/v1/deployments/{deploymentId}/reports/by-public-id/{publicId}",
          { params: { path: { deploymentId, publicId } }, body },
          { retryUpsert: true },
        );
        state.reports.set(saved.publicId, saved);
        state.publicIdOf.set(saved.id, saved.publicId);
      }
      pending.shift();
      items.push({ kind: "report", key: r.item.publicId, status: r.status, changes: r.changes });
    }

    let saved: Workbook | null = plan.current;
    if (plan.workbookStatus !== "unchanged") {
      const meta: Record<string, unknown> = { ...workbook.meta };
      if (workbook.dashboard !== undefined) meta.dashboardDraft = toReportIds(workbook.dashboard, state);
      const body = {
        name: workbook.name,
        ...(workbook.folderId !== undefined ? { folderId: workbook.folderId } : {}),
        ...(Object.keys(meta).length ? { meta } : {}),
      };
      saved = await callApi<Workbook>(
        client,
        baseUrl,
        "put",
        "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}",
        { params: { path: { deploymentId, slug: workbook.slug } }, body },
        { retryUpsert: true },
      );
    }
    pending.shift();
    items.push({ kind: "workbook", key: workbook.slug, status: plan.workbookStatus, changes: plan.workbookChanges });

    if ((opts.publish ?? workbook.publish) && !plan.publishNeeded) {
      // The file matches the server and the published version matches the draft: nothing to freeze.
      pending.shift();
      items.push({ kind: "publish", key: workbook.slug, status: "unchanged" });
    } else if (opts.publish ?? workbook.publish) {
      const before = saved!.publishedDashboard?.versionId ?? null;
      const dashboard = await callApi<{ versionId: number; versionNumber: number }>(
        client,
        baseUrl,
        "post",
        "/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/dashboard/publish",
        {
          params: { path: { deploymentId, workbookId: saved!.id } },
        },
      );
      pending.shift();
      items.push({ kind: "publish", key: `${workbook.slug} v${dashboard.versionNumber}`, status: dashboard.versionId === before ? "unchanged" : "published" });
    }
  } catch (err) {
    return fail(err);
  }
  return { file: plan.file, slug: workbook.slug, deploymentId, items, ok: true };
}

/** The server's draft with numeric report ids turned into public ids (the file's form). */
export function toPublicIds<T>(dashboard: T, state: Pick<DeploymentState, "publicIdOf">): T {
  return mapWidgetReports(dashboard, (ref) =>
    ref.kind === "id" && state.publicIdOf.has(Number(ref.value)) ? { kind: "publicId", value: state.publicIdOf.get(Number(ref.value)) } : null,
  );
}

/** The file's dashboard with public ids turned into the server's numeric report ids. */
function toReportIds<T>(dashboard: T, state: DeploymentState): T {
  return mapWidgetReports(dashboard, (ref) => {
    const report = ref.kind === "publicId" ? state.reports.get(String(ref.value)) : undefined;
    return report ? { kind: "id", value: report.id } : null;
  });
}

/** JSON form (drops undefined) so that parsed files and API answers compare alike. */
function normalize(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** Leaf-level differences between two JSON values, `before` from the server, `after` from the file. */
export function diff(before: unknown, after: unknown, at: string): FieldChange[] {
  const a = normalize(before);
  const b = normalize(after);
  if (isDeepStrictEqual(a, b)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diff(a[k] ?? null, b[k] ?? null, `${at}.${k}`));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.flatMap((v, i) => diff(v, b[i], `${at}.${i}`));
  return [{ path: at, before: a, after: b }];
}

/** The file `svc workbooks export` writes: the workbook, the reports it names, its dashboard draft. */
export async function exportWorkbook(client: SvcPlatformClient, baseUrl: string, slug: string, deploymentId?: number): Promise<WorkbookFile> {
  const depId = deploymentId ?? (await onlyDeployment(client, baseUrl));
  const state = await readDeployment(client, baseUrl, depId);
  const wanted = slug.trim().toLowerCase();
  const workbook = state.workbooks.find((w) => w.slug === wanted);
  if (!workbook) throw new CliError(`no workbook with slug ${wanted} in deployment ${depId}`, 404, "not_found");
  const draft = workbook.meta?.dashboardDraft ?? null;
  const dashboard = draft ? toPublicIds(draft, state) : undefined;
  const named = new Set(widgetReportRefs(dashboard).map((r) => String(r.value)));
  const reports = [...state.reports.values()]
    .filter((r) => named.has(r.publicId) || r.workbookId === workbook.id)
    .sort((x, y) => x.id - y.id)
    .map((r) => {
      const out: Record<string, unknown> = { publicId: r.publicId };
      for (const f of REPORT_FIELDS) if (r[f] !== null && r[f] !== undefined) out[f] = r[f];
      return out as WorkbookFileReport;
    });
  const { dashboardDraft: _draft, ...restMeta } = workbook.meta ?? {};
  return {
    deploymentId: depId,
    slug: workbook.slug!,
    name: workbook.name,
    ...(workbook.folderId ? { folderId: workbook.folderId } : {}),
    ...(Object.keys(restMeta).length ? { meta: restMeta } : {}),
    reports,
    ...(dashboard ? { dashboard } : {}),
    ...(workbook.publishedDashboard ? { publish: true } : {}),
  };
}
