/** TEXT widget: `config.markdown`, rendered and sanitised. */
import { useEffect, useState } from "react";
import type { DashboardWidget } from "../../../schema/dashboard";
import { WidgetFrame } from "../../grid/widget-frame";
import { renderMarkdown } from "./render-markdown";
import "./text-widget.css";

export function TextWidget(props: { widget: DashboardWidget }) {
  const config = (props.widget.config ?? {}) as { markdown?: unknown; title?: unknown };
  const markdown = typeof config.markdown === "string" ? config.markdown : "";
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    renderMarkdown(markdown).then(
      (out) => !cancelled && setHtml(out),
      (e: unknown) => !cancelled && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      cancelled = true;
    };
  }, [markdown]);

  return (
    <WidgetFrame
      widget={props.widget}
      title={typeof config.title === "string" ? config.title : null}
      state={error ? "error" : html === null ? "loading" : "ready"}
      error={error ? { name: "RenderFailed", message: error } : null}
      skeleton="text"
      variant="plain"
    >
      <div className="svc-markdown" dangerouslySetInnerHTML={{ __html: html ?? "" }} />
    </WidgetFrame>
  );
}
