/** The workbook's published dashboard, rendered exactly as the dashboard surface renders it. */
import { useState } from "react";
import { DrilldownPanel } from "../../grid/drilldown-panel";
import { WidgetHostContext, type DrilldownRequest } from "../../grid/widget-host";
import { DashboardGrid } from "../../grid/dashboard-grid";
import { useApp, messageOf } from "./app-context";
import type { AppWorkbook } from "./app-api";
import { useWidgetHost } from "./dashboard-widgets";
import { useAppText } from "./app-messages";
import "../../grid/dashboard-grid.css";

export function PublishedDashboard(props: { workbook: AppWorkbook }) {
  const { switches, go, api, notify, refresh } = useApp();
  const t = useAppText();
  const duplicate = async () => {
    try {
      const copy = await api.duplicateWorkbook(props.workbook.id);
      await refresh();
      notify("ok", t("dashDuplicatedAs", { name: copy.name }));
      go({ kind: "workbook", workbookId: copy.id });
    } catch (error) {
      notify("error", t("dashNotDuplicated", { error: messageOf(error) }));
    }
  };
  const published = props.workbook.publishedDashboard;
  const [drill, setDrill] = useState<DrilldownRequest | null>(null);
  const host = useWidgetHost(published?.reportSnapshots ?? [], true, setDrill);
  if (!published) {
    return (
      <div className="svc-app-empty" data-testid="published-empty">
        <h3>{t("dashNotPublishedYet")}</h3>
        <p>{t("dashPublishHint")}</p>
        {switches.showDashboardEditButton ? (
          <button type="button" className="svc-button is-primary" onClick={() => go({ kind: "dashboard", workbookId: props.workbook.id })}>
            {t("dashOpenEditor")}
          </button>
        ) : null}
      </div>
    );
  }
  const title = published.config.title ?? published.title ?? props.workbook.name;
  return (
    <WidgetHostContext.Provider value={host}>
      <div className="svc-app-published" data-testid="published-dashboard" data-public-id={published.publicId} data-version={published.versionNumber}>
        {switches.showDashboardHeader ? (
          <header className="svc-app-published-header">
            {switches.showDashboardBackButton ? (
              <button type="button" className="svc-button is-small" onClick={() => go({ kind: "home" })}>
                ← {t("dashBack")}
              </button>
            ) : null}
            {switches.showDashboardTitle ? <h2 className="svc-app-published-title">{title}</h2> : null}
            <span className="svc-app-muted">{t("dashVersion", { number: published.versionNumber })}</span>
            <span className="svc-app-tabs-spacer" />
            {switches.showDashboardDuplicateButton ? (
              <button type="button" className="svc-button is-small" onClick={() => void duplicate()} data-testid="duplicate-dashboard">
                {t("dashDuplicate")}
              </button>
            ) : null}
            {switches.showDashboardEditButton ? (
              <button
                type="button"
                className="svc-button is-small"
                onClick={() => go({ kind: "dashboard", workbookId: props.workbook.id })}
                data-testid="edit-dashboard"
              >
                {t("dashEdit")}
              </button>
            ) : null}
          </header>
        ) : null}
        {(published.config.widgets ?? []).length ? (
          <DashboardGrid widgets={published.config.widgets ?? []} layout={published.config.layout} />
        ) : (
          <div className="svc-app-empty">
            <h3>{t("dashPublishedEmpty")}</h3>
          </div>
        )}
      </div>
      {drill ? <DrilldownPanel request={drill} onClose={() => setDrill(null)} /> : null}
    </WidgetHostContext.Provider>
  );
}
