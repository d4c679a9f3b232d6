/**
 * A workbook: its reports as sheets (tabs), each built with the report builder, and its
 * dashboard (the editable draft and the published view).
 */
import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useApp, messageOf } from "./app-context";
import { WorkbookDialogs, WorkbookHeader, WorkbookTabs, type WorkbookRoute } from "./workbook-parts";
import { ReportBuilder } from "./report-builder";
import { DashboardEditor, PublishedDashboard } from "./dashboard-editor";
import { ChartIcon } from "./app-icons";
import { useEmbedServices } from "../../shell/embed-context";
import { errorNameOf } from "../../shell/api";
import { useAppText } from "./app-messages";
import { appQueries } from "./app-queries";

export function WorkbookView(props: { route: WorkbookRoute }) {
  const tx = useAppText();
  const { api, go } = useApp();
  const { workbookId } = props.route;
  const workbook = useQuery(appQueries.workbook(api, workbookId));
  const reports = useQuery(appQueries.reports(api, workbookId));
  const [dialog, setDialog] = useState<"rename" | "share" | "new-report" | null>(null);
  const { bridge } = useEmbedServices();
  // A workbook that cannot be opened (another tenant's is exactly like a missing one) tells the host too.
  const failure = workbook.error ?? reports.error;
  useEffect(() => {
    if (failure) bridge.emitError({ name: errorNameOf(failure, "NotFound"), message: messageOf(failure), fatal: false, context: `workbook:${workbookId}` });
  }, [bridge, failure, workbookId]);

  useEffect(() => {
    void api.touchRecent(workbookId).catch(() => undefined);
  }, [api, workbookId]);

  // The workbook path opens its first report (or the dashboard when it has none yet).
  const route = props.route;
  const first = reports.data?.[0];
  useEffect(() => {
    if (route.kind === "workbook" && reports.data && workbook.data) {
      if (first) go({ kind: "report", workbookId, reportId: first.id });
    }
  }, [route.kind, reports.data, workbook.data, first, go, workbookId]);

  if (workbook.isPending || reports.isPending) {
    return (
      <div className="svc-app-page" aria-busy="true">
        <div className="svc-app-skeleton">
          <div />
          <div />
        </div>
      </div>
    );
  }
  if (workbook.isError || reports.isError) {
    return (
      <div className="svc-app-page">
        <div className="svc-app-empty" role="alert" data-testid="workbook-error">
          <h3>{tx("wbCannotOpen")}</h3>
          <p>{messageOf(workbook.error ?? reports.error)}</p>
          <button type="button" className="svc-button" onClick={() => go({ kind: "home" })}>
            {tx("wbBackHome")}
          </button>
        </div>
      </div>
    );
  }
  const wb = workbook.data;
  const list = reports.data;
  const current = route.kind === "report" ? list.find((r) => r.id === route.reportId) : undefined;
  const canEdit = list.length === 0 ? true : list.every((r) => r.canEdit !== false);

  return (
    <div className="svc-app-workbook">
      <main className="svc-app-page is-wide" data-testid="workbook" data-workbook-id={workbookId}>
        <WorkbookHeader workbook={wb} canEdit={canEdit} onDialog={setDialog} />
        <WorkbookTabs route={route} reports={list} canEdit={canEdit} onNewReport={() => setDialog("new-report")} />

        {route.kind === "report" && current ? (
          <ReportBuilder key={current.id} report={current} canEdit={current.canEdit !== false} />
        ) : route.kind === "report" ? (
          <div className="svc-app-empty">
            <h3>{tx("wbReportMissing")}</h3>
          </div>
        ) : route.kind === "dashboard" ? (
          <DashboardEditor workbook={wb} reports={list} canEdit={canEdit} />
        ) : route.kind === "published" ? (
          <PublishedDashboard workbook={wb} />
        ) : (
          <div className="svc-app-empty" data-testid="workbook-empty">
            <div className="svc-app-empty-icon" aria-hidden="true">
              <ChartIcon size={28} />
            </div>
            <h3>{tx("wbNoReports")}</h3>
            <p>{tx("wbNoReportsHint")}</p>
            {canEdit ? (
              <button type="button" className="svc-button is-primary" onClick={() => setDialog("new-report")}>
                {tx("wbCreateReport")}
              </button>
            ) : null}
          </div>
        )}
      </main>
      <WorkbookDialogs open={dialog} workbook={wb} onClose={() => setDialog(null)} />
    </div>
  );
}
