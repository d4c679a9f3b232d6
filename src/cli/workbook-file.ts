import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import { z } from "zod";
import { FreeFormObject } from "../schema/common";
import { DashboardConfig } from "../schema/dashboard";
import { PublicId, ReportInput } from "../schema/report";
import { SLUG_PATTERN, SLUG_RULE } from "../schema/workspace";

/** A report of a workbook file: the upsert body plus the public id it is keyed by. */
export const WorkbookFileReport = ReportInput.omit({ folderId: true, workbookId: true }).extend({
  publicId: PublicId,
  name: z.string().trim().min(1).max(255),
});
export type WorkbookFileReport = z.infer<typeof WorkbookFileReport>;

/**
 * A workbook as code: the workbook (by slug), its reports (by public id) and its dashboard,
 * whose CHART widgets name reports by `config.reportPublicId`. Fields left out are left
 * alone on the server; `null` clears a nullable field.
 */
export const WorkbookFile = z
  .object({
    deploymentId: z.number().int().positive().optional(),
    slug: z.string().regex(SLUG_PATTERN, `slug must be ${SLUG_RULE}`),
    name: z.string().trim().min(1).max(255),
    folderId: z.number().int().positive().nullable().optional(),
    meta: FreeFormObject.optional(),
    reports: z.array(WorkbookFileReport).default([]),
    dashboard: DashboardConfig.optional(),
    publish: z.boolean().optional(),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    file.reports.forEach((r, i) => {
      if (seen.has(r.publicId))
        ctx.addIssue({ code: "custom", path: ["reports", i, "publicId"], message: `duplicate public id (also reports.${seen.get(r.publicId)})` });
      seen.set(r.publicId, i);
    });
    if (file.meta && "dashboardDraft" in file.meta) {
      ctx.addIssue({ code: "custom", path: ["meta", "dashboardDraft"], message: "put the dashboard under the top-level `dashboard` key" });
    }
    for (const ref of widgetReportRefs(file.dashboard)) {
      if (ref.kind === "id")
        ctx.addIssue({ code: "custom", path: ["dashboard", ...ref.path], message: "name reports by config.reportPublicId, not by numeric reportId" });
      else if (!PublicId.safeParse(ref.value).success)
        ctx.addIssue({ code: "custom", path: ["dashboard", ...ref.path], message: "must be 12 characters [0-9A-Za-z]" });
    }
  });
export type WorkbookFile = z.infer<typeof WorkbookFile>;

/** A report reference of a widget (nested tab widgets included), with its path in the dashboard. */
export interface WidgetReportRef {
  path: (string | number)[];
  kind: "id" | "publicId";
  value: unknown;
}

/** Every `config.reportId` / `config.reportPublicId` of the dashboard's widgets, tabs included. */
export function widgetReportRefs(dashboard: unknown): WidgetReportRef[] {
  const refs: WidgetReportRef[] = [];
  const visitWidgets = (widgets: unknown, at: (string | number)[]) => {
    if (!Array.isArray(widgets)) return;
    widgets.forEach((w, i) => {
      const config = (w as { config?: unknown } | null)?.config;
      if (!config || typeof config !== "object") return;
      const c = config as Record<string, unknown>;
      const here = [...at, i, "config"];
      if (c.reportId !== undefined && c.reportId !== null) refs.push({ path: [...here, "reportId"], kind: "id", value: c.reportId });
      if (c.reportPublicId !== undefined) refs.push({ path: [...here, "reportPublicId"], kind: "publicId", value: c.reportPublicId });
      if (Array.isArray(c.tabs)) c.tabs.forEach((tab, t) => visitWidgets((tab as { widgets?: unknown } | null)?.widgets, [...here, "tabs", t, "widgets"]));
    });
  };
  visitWidgets((dashboard as { widgets?: unknown } | null | undefined)?.widgets, ["widgets"]);
  return refs;
}

/**
 * A copy of the dashboard with each widget's report reference rewritten by `map` (used to turn
 * public ids into the server's numeric ids and back). `map` returns null to leave it as is.
 */
export function mapWidgetReports<T>(
  dashboard: T,
  map: (ref: { kind: "id" | "publicId"; value: unknown }) => { kind: "id" | "publicId"; value: unknown } | null,
): T {
  const mapWidgets = (widgets: unknown): unknown =>
    Array.isArray(widgets)
      ? widgets.map((w) => {
          const config = (w as { config?: unknown } | null)?.config;
          if (!config || typeof config !== "object") return w;
          const c = { ...(config as Record<string, unknown>) };
          const current =
            c.reportId !== undefined && c.reportId !== null
              ? { kind: "id" as const, value: c.reportId }
              : c.reportPublicId !== undefined
                ? { kind: "publicId" as const, value: c.reportPublicId }
                : null;
          const next = current ? map(current) : null;
          if (current && next) {
            delete c.reportId;
            delete c.reportPublicId;
            c[next.kind === "id" ? "reportId" : "reportPublicId"] = next.value;
          }
          if (Array.isArray(c.tabs))
            c.tabs = c.tabs.map((tab) => (tab && typeof tab === "object" ? { ...tab, widgets: mapWidgets((tab as { widgets?: unknown }).widgets) } : tab));
          return { ...(w as object), config: c };
        })
      : widgets;
  if (!dashboard || typeof dashboard !== "object") return dashboard;
  const d = dashboard as Record<string, unknown>;
  return ("widgets" in d ? { ...d, widgets: mapWidgets(d.widgets) } : { ...d }) as T;
}

/** One problem of a file, with where it is. */
export interface FileProblem {
  file: string;
  path: string;
  message: string;
}

export type LoadedFile = { file: string; ok: true; workbook: WorkbookFile } | { file: string; ok: false; problems: FileProblem[] };

const EXTENSIONS = new Set([".yml", ".yaml", ".json"]);

/** The workbook files a path names: the file itself, or every .yml/.yaml/.json in a folder (sorted, not recursive). */
export async function listWorkbookFiles(target: string): Promise<string[]> {
  const info = await stat(target);
  if (!info.isDirectory()) return [target];
  const names = (await readdir(target)).filter((n) => EXTENSIONS.has(path.extname(n).toLowerCase())).sort();
  return names.map((n) => path.join(target, n));
}

/** Reads and validates one file; every problem is listed with its path. */
export async function loadWorkbookFile(file: string): Promise<LoadedFile> {
  let raw: unknown;
  try {
    const text = await readFile(file, "utf8");
    raw = path.extname(file).toLowerCase() === ".json" ? JSON.parse(text) : YAML.parse(text, { prettyErrors: true });
  } catch (err) {
    return { file, ok: false, problems: [{ file, path: "", message: `cannot be read: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` }] };
  }
  const parsed = WorkbookFile.safeParse(raw);
  if (!parsed.success) {
    return {
      file,
      ok: false,
      problems: parsed.error.issues.map((i) => ({ file, path: i.path.map(String).join("."), message: i.message })),
    };
  }
  return { file, ok: true, workbook: parsed.data };
}

/** The text `svc workbooks export` writes (and `apply` reads back). */
export function serializeWorkbookFile(workbook: WorkbookFile, format: "yaml" | "json"): string {
  return format === "json" ? JSON.stringify(workbook, null, 2) + "\n" : YAML.stringify(workbook, { lineWidth: 0 });
}
