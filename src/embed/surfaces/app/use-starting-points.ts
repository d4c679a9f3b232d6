/**
 * The home's starting points: the published dashboards the creator may copy (from the API) and
 * the views a template can be built of (from the model), and the two ways to start — each ends
 * in the new workbook's dashboard editor. Every write goes through an access-checked operation:
 * the copy (`copyPublishedDashboard`), or a workbook in the creator's root, its reports and its
 * draft for a template, the workbook deleted again when a later step fails.
 */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useEmbedStore } from "../../state/use-embed-store";
import { useApp, messageOf } from "./app-context";
import type { AppWorkbook, MetaSource } from "./app-api";
import { useAppText } from "./app-messages";
import { templateDashboard, templateReports, templateViews } from "./home-template";
import { appQueries } from "./app-queries";

export function useStartingPoints(enabled: boolean) {
  const { api, go, notify, refresh } = useApp();
  const t = useAppText();
  const locale = useEmbedStore((s) => s.locale);
  const points = useQuery({ ...appQueries.startingPoints(api, locale), enabled });
  const meta = useQuery({ ...appQueries.meta(api, locale), enabled });
  const [busy, setBusy] = useState<"copy" | "template" | null>(null);

  const run = async (kind: "copy" | "template", make: () => Promise<AppWorkbook>) => {
    setBusy(kind);
    try {
      const wb = await make();
      await refresh();
      notify("ok", t("startCreated", { name: wb.name }));
      go({ kind: "dashboard", workbookId: wb.id });
    } catch (error) {
      notify("error", t("startFailed", { error: messageOf(error) }));
    } finally {
      setBusy(null);
    }
  };

  const copy = (publicId: string) => run("copy", () => api.copyDashboard(publicId));

  const fromTemplate = (view: MetaSource) =>
    run("template", async () => {
      const name = t("startTemplateName", { view: view.title });
      const wb = await api.createWorkbook(name, null);
      try {
        const reports = templateReports(view, { by: (measure, dimension) => t("startBy", { measure, dimension }) }, locale);
        const ids = new Map<string, number>();
        for (const r of reports) {
          const report = await api.createReport(wb.id, r.name, { kind: r.kind, query: r.query as Record<string, unknown> });
          if (r.spec) await api.saveReport(report.publicId, { spec: r.spec });
          ids.set(r.key, report.id);
        }
        await api.saveDraft(wb.id, templateDashboard(name, reports, ids));
        return wb;
      } catch (error) {
        // All or nothing: a template that failed half way leaves no half-made workbook behind
        // (its reports go with it); the failure is what the creator is told.
        await api.deleteWorkbook(wb.id).catch(() => undefined);
        throw error;
      }
    });

  return { dashboards: points.data?.dashboards ?? [], views: templateViews(meta.data?.sources ?? []), busy, copy, fromTemplate };
}
