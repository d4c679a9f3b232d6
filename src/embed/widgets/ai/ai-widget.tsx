/**
 * AI widget `{ question? }`: asks a natural-language question about the dashboard's data.
 * Emits `ai-query` submitted → completed | error around every run. When the platform has no
 * AI configured (or the viewer may not use it) it says so clearly instead of failing.
 */
import { useState, type FormEvent } from "react";
import type { DashboardWidget } from "../../../schema/dashboard";
import { ApiError, isAbortError } from "../../app/api";
import { SparkIcon } from "../../app/icons";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { useWidgetHost } from "../widget-context";
import { WidgetFrame } from "../widget-frame";

type AiState = { status: "idle" } | { status: "running" } | { status: "answered"; answer: string } | { status: "unavailable" } | { status: "failed"; message: string };

export function AiWidget(props: { widget: DashboardWidget }) {
  const host = useWidgetHost();
  const locale = useEmbedStore((s) => s.locale);
  const config = (props.widget.config ?? {}) as { question?: unknown; title?: unknown };
  const [question, setQuestion] = useState(typeof config.question === "string" ? config.question : "");
  const [state, setState] = useState<AiState>(host.aiAllowed ? { status: "idle" } : { status: "unavailable" });

  async function ask(event: FormEvent) {
    event.preventDefault();
    const query = question.trim();
    if (!query || state.status === "running") return;
    setState({ status: "running" });
    host.aiQuery({ query, status: "submitted" });
    try {
      const { answer } = await host.askAi(query);
      host.aiQuery({ query, status: "completed" });
      setState({ status: "answered", answer });
    } catch (error) {
      if (isAbortError(error)) return;
      host.aiQuery({ query, status: "error" });
      if (error instanceof ApiError && (error.status === 404 || error.status === 501 || error.status === 503 || error.code === "ai_not_configured")) {
        setState({ status: "unavailable" });
      } else {
        const message = error instanceof Error ? error.message : String(error);
        host.reportError({ name: "AiQueryFailed", message, context: `widget:${props.widget.id}`, fatal: false });
        setState({ status: "failed", message });
      }
    }
  }

  const title = typeof config.title === "string" ? config.title : t(locale, "ai.title");
  return (
    <WidgetFrame widget={props.widget} title={title} state="ready">
      <div className="svc-ai">
        {state.status === "unavailable" ? (
          <div className="svc-notice" role="status" data-testid={`ai-unavailable-${props.widget.id}`}>
            <SparkIcon size={18} />
            <p>{t(locale, "ai.notConfigured")}</p>
          </div>
        ) : null}
        {state.status === "answered" ? <p className="svc-ai-answer">{state.answer}</p> : null}
        {state.status === "failed" ? (
          <p className="svc-form-error" role="alert">
            {t(locale, "error.AiQueryFailed")}
          </p>
        ) : null}
        <form className="svc-ai-form" onSubmit={ask}>
          <input
            type="text"
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            placeholder={t(locale, "ai.askQuestion")}
            aria-label={t(locale, "ai.askQuestion")}
            maxLength={2000}
          />
          <button type="submit" className="svc-button is-primary" disabled={!question.trim() || state.status === "running"}>
            <SparkIcon size={14} />
            {t(locale, "ai.ask")}
          </button>
        </form>
      </div>
    </WidgetFrame>
  );
}
