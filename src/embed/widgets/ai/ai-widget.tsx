/**
 * AI widget `{ question?, title? }`. The platform's API has no AI operation yet (its OpenAPI
 * document, and so the typed client, offers none), so the widget says up front that AI is
 * not configured, with the dashboard author's suggested question shown as a chip: a finished
 * state rather than an empty box or a form that can only fail.
 */
import type { DashboardWidget } from "../../../schema/dashboard";
import { SparkIcon } from "../../ui/icons";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { WidgetFrame } from "../../grid/widget-frame";
import "../../ui/chip.css";
import "../../ui/visually-hidden.css";
import "./ai-widget.css";

export function AiWidget(props: { widget: DashboardWidget }) {
  const locale = useEmbedStore((s) => s.locale);
  const config = (props.widget.config ?? {}) as { question?: unknown; title?: unknown };
  const question = typeof config.question === "string" ? config.question.trim().slice(0, 300) : "";
  const title = typeof config.title === "string" ? config.title : t(locale, "ai.title");
  return (
    <WidgetFrame widget={props.widget} title={title} state="ready">
      <div className="svc-ai" role="status" data-testid={`ai-unavailable-${props.widget.id}`}>
        <div className="svc-ai-badge" aria-hidden="true">
          <SparkIcon size={18} />
        </div>
        <div className="svc-ai-text">
          <p className="svc-ai-title">{t(locale, "ai.notConfigured")}</p>
          <p className="svc-ai-hint">{t(locale, "ai.notConfiguredHint")}</p>
          {question ? (
            <p className="svc-ai-suggestion">
              <span className="svc-visually-hidden">{t(locale, "ai.suggested")}: </span>
              <span className="svc-chip is-question" title={t(locale, "ai.suggested")}>
                {question}
              </span>
            </p>
          ) : null}
        </div>
      </div>
    </WidgetFrame>
  );
}
