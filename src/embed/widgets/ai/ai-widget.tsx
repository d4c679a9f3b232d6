/**
 * AI widget `{ prompt | question, title? }`: Markdown the platform writes from the dashboard's
 * data under the viewer's filters. The answer is cached on the platform; when the filters or
 * the dashboard change it is marked stale, and "Regenerate" writes a new one.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useParams } from "react-router";
import type { DashboardWidget } from "../../../schema/dashboard";
import { serializeFilterParameters } from "../../../schema/dashboard-filters";
import { AlertIcon, RefreshIcon, SparkIcon } from "../../ui/icons";
import { t } from "../../i18n";
import { useEmbedServices } from "../../shell/embed-context";
import { useEmbedStore } from "../../state/use-embed-store";
import { WidgetFrame } from "../../grid/widget-frame";
import { renderMarkdown } from "../text/render-markdown";
import { chatText } from "../../chat/chat-messages";
import { useScrollEdges } from "../chart/use-scroll-edges";
import { useCellGrowth, useGrowToContent } from "../../grid/grown-cells";
import "../../ui/chip.css";
import "../../ui/visually-hidden.css";
import "./ai-widget.css";

interface Answer {
  markdown: string;
  checksum: string;
  stale: boolean;
  generatedAt: string;
}

export function AiWidget(props: { widget: DashboardWidget }) {
  const { api } = useEmbedServices();
  const { publicId = "" } = useParams();
  const locale = useEmbedStore((s) => s.locale);
  const filters = useEmbedStore((s) => s.filters);
  const filterUrlParameters = useMemo(() => serializeFilterParameters(filters), [filters]);
  const config = (props.widget.config ?? {}) as { question?: unknown; prompt?: unknown; title?: unknown };
  const title = typeof config.title === "string" ? config.title : t(locale, "ai.title");
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [html, setHtml] = useState("");
  const [state, setState] = useState<"loading" | "ready" | "error">("loading");
  const [error, setError] = useState<{ name: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // A failed "Regenerate" keeps the answer in view and says why beside the button.
  const [regenerateError, setRegenerateError] = useState<string | null>(null);
  const shown = useRef<Answer | null>(null);

  const load = useCallback(
    async (regenerate: boolean) => {
      setBusy(true);
      try {
        const res = await api.fetch(`/api/v1/embed/dashboard/${encodeURIComponent(publicId)}/ai-widgets/${encodeURIComponent(props.widget.id)}/answer`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ filterUrlParameters, locale, ...(regenerate ? { regenerate: true } : {}) }),
        });
        const body = (await res.json()) as Answer & { message?: string };
        if (!res.ok) throw new Error(body.message ?? res.statusText);
        shown.current = body;
        setAnswer(body);
        setHtml(await renderMarkdown(body.markdown));
        setState("ready");
        setError(null);
        setRegenerateError(null);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (regenerate && shown.current) {
          setRegenerateError(message);
          return;
        }
        setError({ name: "AiQueryFailed", message });
        setState("error");
      } finally {
        setBusy(false);
      }
    },
    [api, publicId, props.widget.id, filterUrlParameters, locale],
  );

  useEffect(() => {
    void load(false);
  }, [load]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(scrollRef, "y", html);
  // The answer is never cut off: its cell grows to it on the dashboard (inside a tab's card it scrolls).
  useGrowToContent(useCellGrowth(props.widget.id), scrollRef, textRef, html);

  return (
    <WidgetFrame widget={props.widget} title={title} state={state} error={error} onRetry={() => void load(false)} skeleton="text" busy={busy}>
      {/* Where its card cannot grow (in a tab) an answer taller than it scrolls; an edge at the bottom says more is below. */}
      <div className="svc-ai-frame" data-more-below={edges.after || undefined}>
        <div
          className="svc-ai is-answer"
          ref={scrollRef}
          onScroll={edges.measure}
          data-testid={`ai-answer-${props.widget.id}`}
          data-stale={answer?.stale ? "true" : "false"}
        >
          <div className="svc-ai-badge" aria-hidden="true">
            <SparkIcon size={18} />
          </div>
          <div className="svc-ai-text" ref={textRef}>
            {answer?.stale ? (
              <p className="svc-ai-stale" role="status" data-testid="ai-stale">
                {chatText(locale, "stale")}
              </p>
            ) : null}
            <div className="svc-ai-markdown" dangerouslySetInnerHTML={{ __html: html }} />
            <p className="svc-ai-actions">
              <button type="button" className="svc-button is-small" onClick={() => void load(true)} disabled={busy} data-testid="ai-regenerate">
                <RefreshIcon size={14} />
                {busy ? chatText(locale, "generating") : chatText(locale, "regenerate")}
              </button>
              {regenerateError ? (
                <span className="svc-ai-error" role="alert" data-testid="ai-regenerate-error">
                  <AlertIcon size={14} />
                  {`${chatText(locale, "failed")}: ${regenerateError}`}
                </span>
              ) : null}
            </p>
          </div>
        </div>
      </div>
    </WidgetFrame>
  );
}
