/**
 * A workbook: its reports as sheets (tabs), each built with the report builder, and its
 * dashboard (the editable draft and the published view).
 */
import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useApp, messageOf } from "./app-context";
import type { AppRoute } from "./app-api";
import { ReportBuilder } from "./report-builder";
import { DashboardEditor, PublishedDashboard } from "./dashboard-editor";
import { NameDialog, ShareDialog } from "./workspace-view";
import { WorkbookChatPanel } from "./app-chat-slot";
import { ChartIcon, GridIcon, StarIcon } from "./app-icons";
import { useEmbedServices } from "../../shell/embed-context";
import { errorNameOf } from "../../shell/api";
import { useAppText } from "./app-messages";
import { appQueries } from "./app-queries";

type WorkbookRoute = Extract<AppRoute, { kind: "workbook" | "report" | "dashboard" | "published" }>;

export function WorkbookView(props: { route: WorkbookRoute }) {
  const tx = useAppText();
  const { api, go, notify, refresh, switches, me } = useApp();
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

  const toggleFavorite = async () => {
    try {
      await api.favorite(workbookId, !wb.isFavorite);
      await refresh();
    } catch (error) {
      notify("error", messageOf(error));
    }
  };

  return (
    <div className="svc-app-workbook">
      <main className="svc-app-page is-wide" data-testid="workbook" data-workbook-id={workbookId}>
        <header className="svc-app-header">
          <div className="svc-app-heading">
            {switches.showWorkbookBackButton ? (
              <nav className="svc-app-crumbs" aria-label={tx("breadcrumb")}>
                <button type="button" className="svc-app-crumb" onClick={() => go({ kind: "home" })}>
                  {tx("home")}
                </button>
                {(wb.folderPath ?? []).map((p) => (
                  <button key={p.id} type="button" className="svc-app-crumb" onClick={() => go({ kind: "folder", folderId: p.id })}>
                    {p.name}
                  </button>
                ))}
              </nav>
            ) : null}
            <h1 className="svc-app-title">
              {wb.name}
              <button
                type="button"
                className={wb.isFavorite ? "svc-app-star is-on" : "svc-app-star"}
                aria-pressed={!!wb.isFavorite}
                aria-label={wb.isFavorite ? tx("wbFavoriteRemove") : tx("wbFavoriteAdd")}
                onClick={() => void toggleFavorite()}
                data-testid="favorite"
              >
                <StarIcon filled={!!wb.isFavorite} />
              </button>
            </h1>
          </div>
          <div className="svc-app-actions">
            {switches.showWorkbookChat ? <WorkbookChatPanel workbookId={workbookId} canEdit={canEdit} /> : null}
            <button type="button" className="svc-button" onClick={() => setDialog("rename")}>
              {tx("wbRename")}
            </button>
            {me.mode === "signed" && switches.showWorkbookShare ? (
              <button type="button" className="svc-button" onClick={() => setDialog("share")} data-testid="share-workbook">
                {tx("wbShare")}
              </button>
            ) : null}
          </div>
        </header>
        <div className="svc-app-tabs" role="tablist" aria-label={tx("wbSheets")}>
          {list.map((r) => (
            <button
              key={r.id}
              type="button"
              role="tab"
              aria-selected={current?.id === r.id}
              className={current?.id === r.id ? "svc-app-tab is-active" : "svc-app-tab"}
              onClick={() => go({ kind: "report", workbookId, reportId: r.id })}
              data-testid={`sheet-${r.id}`}
            >
              <ChartIcon size={14} /> {r.name}
            </button>
          ))}
          {canEdit ? (
            <button type="button" className="svc-app-tab is-add" onClick={() => setDialog("new-report")} data-testid="new-report">
              {tx("wbAddReport")}
            </button>
          ) : null}
          <span className="svc-app-tabs-spacer" />
          <button
            type="button"
            role="tab"
            aria-selected={route.kind === "dashboard"}
            className={route.kind === "dashboard" ? "svc-app-tab is-active" : "svc-app-tab"}
            onClick={() => go({ kind: "dashboard", workbookId })}
            data-testid="tab-dashboard"
          >
            <GridIcon size={14} /> {tx("wbDashboard")}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={route.kind === "published"}
            className={route.kind === "published" ? "svc-app-tab is-active" : "svc-app-tab"}
            onClick={() => go({ kind: "published", workbookId })}
            data-testid="tab-published"
          >
            {tx("wbPublished")}
          </button>
        </div>

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
      {dialog === "rename" ? (
        <NameDialog
          title={tx("wbRenameTitle")}
          initial={wb.name}
          action={tx("wbRename")}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            await api.renameWorkbook(workbookId, name);
            await refresh();
          }}
        />
      ) : null}
      {dialog === "new-report" ? (
        <NameDialog
          title={tx("wbNewReport")}
          initial=""
          action={tx("wbCreate")}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            const report = await api.createReport(workbookId, name);
            await refresh();
            go({ kind: "report", workbookId, reportId: report.id });
          }}
        />
      ) : null}
      {dialog === "share" ? <ShareDialog item={{ type: "WORKBOOK", id: workbookId, name: wb.name }} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}
