/**
 * The card every widget sits in: a named landmark (role="region"), a header with the title
 * and the export controls, the body, and the loading skeleton / error-with-retry states.
 * `data-state` exposes loading | ready | error for tests and hosts.
 */
import { useEffect, useState, type ReactNode } from "react";
import type { DownloadFormat } from "../../protocol";
import type { DashboardWidget } from "../../schema/dashboard";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { AlertIcon, DownloadIcon, ImageIcon, RefreshIcon, TableIcon } from "../ui/icons";
import { offersExport, useWidgetHost } from "./widget-host";
import "../ui/buttons.css";
import "./widget-frame.css";

export interface WidgetExport {
  format: DownloadFormat;
  run: () => Promise<void>;
}

export interface WidgetFrameProps {
  widget: DashboardWidget;
  title: string | null;
  description?: string | null;
  state: "loading" | "ready" | "error";
  error?: { name: string; message: string } | null;
  onRetry?: () => void;
  exports?: WidgetExport[];
  /** Shown without the card chrome (filters and grain switches in a toolbar look). */
  variant?: "card" | "control" | "plain";
  /** The body's own skeleton shape while loading. */
  skeleton?: "chart" | "table" | "kpi" | "text";
  /** True while a newer request runs behind data on screen. */
  busy?: boolean;
  /**
   * Data is there but the body is still drawing (a chart): the body renders, `data-state`
   * stays `loading` and the widget does not count as loaded yet.
   */
  rendering?: boolean;
  children?: ReactNode;
}

const EXPORT_ICONS: Record<DownloadFormat, ReactNode> = {
  csv: <TableIcon size={14} />,
  xlsx: <DownloadIcon size={14} />,
  png: <ImageIcon size={14} />,
  pdf: <DownloadIcon size={14} />,
};

export function WidgetFrame(props: WidgetFrameProps) {
  const host = useWidgetHost();
  const locale = useEmbedStore((s) => s.locale);
  const [exporting, setExporting] = useState<DownloadFormat | null>(null);
  const { widget, state } = props;
  const label = props.title || t(locale, "widget.untitled");

  const reported = state === "ready" && props.rendering ? "loading" : state;
  useEffect(() => {
    if (reported === "ready" || reported === "error") host.settle(widget.id, reported);
  }, [reported, host, widget.id]);

  async function runExport(item: WidgetExport) {
    setExporting(item.format);
    try {
      await item.run();
    } catch (error) {
      host.reportError({ name: "ExportFailed", message: error instanceof Error ? error.message : String(error), context: `widget:${widget.id}`, fatal: false });
    } finally {
      setExporting(null);
    }
  }

  // Only the formats the viewer may export (the session's grant within the URL's allowExport=true).
  const exports = state === "ready" ? (props.exports ?? []).filter((item) => offersExport(host, item.format)) : [];
  const variant = props.variant ?? "card";
  return (
    <section
      className={`svc-widget is-${variant} type-${widget.type.toLowerCase()}`}
      role="region"
      aria-label={label}
      aria-busy={reported === "loading" || props.busy ? true : undefined}
      data-testid={`widget-${widget.id}`}
      data-widget-type={widget.type}
      data-state={reported}
    >
      {props.title || exports.length > 0 ? (
        <header className="svc-widget-header">
          <div className="svc-widget-heading">
            {props.title ? <h2 className="svc-widget-title">{props.title}</h2> : null}
            {props.description ? (
              <p className="svc-widget-description" title={props.description}>
                {props.description}
              </p>
            ) : null}
          </div>
          {exports.length > 0 ? (
            <div className="svc-widget-tools" data-export-ignore="true" role="group" aria-label={t(locale, "export.menu")}>
              {exports.map((item) => (
                <button
                  key={item.format}
                  type="button"
                  className="svc-tool-button"
                  data-testid={`export-${item.format}-${widget.id}`}
                  onClick={() => void runExport(item)}
                  disabled={exporting !== null}
                  title={t(locale, `export.${item.format}`)}
                  aria-label={`${t(locale, `export.${item.format}`)}: ${label}`}
                >
                  {EXPORT_ICONS[item.format]}
                  <span>{item.format.toUpperCase()}</span>
                </button>
              ))}
            </div>
          ) : null}
        </header>
      ) : null}
      <div className={`svc-widget-body ${props.busy ? "is-busy" : ""}`}>
        {state === "loading" ? (
          <WidgetSkeleton shape={props.skeleton ?? "chart"} label={t(locale, "loading")} />
        ) : state === "error" ? (
          <div className="svc-widget-error" role="alert">
            <AlertIcon size={20} />
            <p className="svc-widget-error-title">{t(locale, "widgetFailed")}</p>
            {props.error?.message ? <p className="svc-widget-error-detail">{props.error.message}</p> : null}
            {props.onRetry ? (
              <button type="button" className="svc-button is-small" onClick={props.onRetry} data-testid={`retry-${widget.id}`}>
                <RefreshIcon size={14} />
                {t(locale, "retry")}
              </button>
            ) : null}
          </div>
        ) : (
          props.children
        )}
      </div>
    </section>
  );
}

export function WidgetSkeleton(props: { shape: "chart" | "table" | "kpi" | "text"; label: string }) {
  return (
    <div className={`svc-skeleton is-${props.shape}`} role="status" aria-label={props.label}>
      {props.shape === "kpi" ? (
        <>
          <span className="svc-skeleton-line is-wide" />
          <span className="svc-skeleton-line is-short" />
        </>
      ) : props.shape === "table" || props.shape === "text" ? (
        Array.from({ length: 5 }, (_, i) => <span key={i} className="svc-skeleton-line" style={{ width: `${90 - i * 9}%` }} />)
      ) : (
        <div className="svc-skeleton-bars">
          {[55, 80, 40, 95, 65, 75, 50].map((h, i) => (
            <span key={i} style={{ height: `${h}%` }} />
          ))}
        </div>
      )}
    </div>
  );
}
