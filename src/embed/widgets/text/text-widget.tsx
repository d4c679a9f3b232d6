/** TEXT widget: `config.markdown`, rendered and sanitised. */
import { useEffect, useState } from "react";
import type { DashboardWidget } from "../../../schema/dashboard";
import { WidgetFrame } from "../../grid/widget-frame";
import { widgetCommitPacer } from "../query/paced-commits";
import { loadMarkdownRenderer } from "./render-markdown";
import "./text-widget.css";

export function TextWidget(props: { widget: DashboardWidget }) {
  const config = (props.widget.config ?? {}) as { markdown?: unknown; title?: unknown };
  const markdown = typeof config.markdown === "string" ? config.markdown : "";
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    // Each widget's markdown is parsed in a slice of its own (paced-commits.ts), not all at once.
    loadMarkdownRenderer().then(
      (render) =>
        widgetCommitPacer.pace(() => {
          if (cancelled) return;
          try {
            setHtml(render(markdown));
          } catch (e) {
            setError(e instanceof Error ? e.message : String(e));
          }
        }),
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
