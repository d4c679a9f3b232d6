/**
 * The rows behind a clicked value: a modal side panel running the detail query of that slice
 * (same filters, same row-level security, on the server).
 */
import { useEffect, useRef } from "react";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { CloseIcon } from "../../ui/icons";
import type { QueryResult } from "../../shell/platform-api";
import { titleOfColumn } from "../../export/export-columns";
import { tableColumnsOf } from "../../widgets/chart/table-model";
import { TableView } from "../../widgets/chart/table-view";
import { useWidgetQuery } from "../../widgets/query/use-widget-query";
import { WidgetSkeleton } from "../../grid/widget-frame";
import { useWidgetHost, type DrilldownRequest } from "../../grid/widget-host";
import "../../ui/buttons.css";
import "./drilldown-panel.css";

export function DrilldownPanel(props: { request: DrilldownRequest; onClose: () => void }) {
  const host = useWidgetHost();
  const locale = useEmbedStore((s) => s.locale);
  const closeRef = useRef<HTMLButtonElement>(null);
  const { request, onClose } = props;
  const result = useWidgetQuery<QueryResult>(JSON.stringify(request.detailQuery), (signal) => host.runQuery({ query: request.detailQuery }, signal));

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [onClose]);

  const memberTitle = titleOfColumn(request.member, result.data?.annotation);
  return (
    <div className="svc-drawer-backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <aside
        className="svc-drawer"
        role="dialog"
        aria-modal="true"
        aria-labelledby="svc-drill-title"
        data-testid="drilldown-panel"
        data-state={result.status === "ready" ? "ready" : result.status === "error" ? "error" : "loading"}
      >
        <header className="svc-drawer-header">
          <div>
            <p className="svc-drawer-eyebrow">{request.title}</p>
            <h2 id="svc-drill-title">{t(locale, "drilldown.title", { member: memberTitle })}</h2>
          </div>
          <button ref={closeRef} type="button" className="svc-icon-button" onClick={props.onClose} aria-label={t(locale, "close")}>
            <CloseIcon size={16} />
          </button>
        </header>
        <div className="svc-drawer-body">
          {result.status === "ready" && result.data ? (
            <TableView
              columns={tableColumnsOf(result.data.data, result.data.annotation, request.detailQuery, null)}
              rows={result.data.data}
              caption={memberTitle}
            />
          ) : result.status === "error" ? (
            <div className="svc-widget-error" role="alert">
              <p className="svc-widget-error-title">{t(locale, "error.QueryFailed")}</p>
              <p className="svc-widget-error-detail">{result.error?.message}</p>
              <button type="button" className="svc-button is-small" onClick={result.retry}>
                {t(locale, "retry")}
              </button>
            </div>
          ) : (
            <WidgetSkeleton shape="table" label={t(locale, "loading")} />
          )}
        </div>
      </aside>
    </div>
  );
}
