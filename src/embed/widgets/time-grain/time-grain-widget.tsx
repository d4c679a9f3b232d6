/**
 * TIME_GRAIN widget `{ dimension, options, default }`: switches the granularity of every
 * chart whose query has that time dimension (the `tg_` state).
 */
import type { DashboardWidget } from "../../../schema/dashboard";
import { isMemberName, TIME_GRANULARITIES, type TimeGranularity } from "../../../schema/dashboard-filters";
import { t, type MessageKey } from "../../i18n";
import { useEmbedStore, useEmbedStoreApi } from "../../state/use-embed-store";
import { WidgetFrame } from "../../grid/widget-frame";
import "../control.css";
import "./time-grain-widget.css";

export interface TimeGrainConfig {
  dimension: string;
  options: TimeGranularity[];
  defaultGrain: TimeGranularity | null;
}

export function timeGrainConfigOf(widget: DashboardWidget): TimeGrainConfig | null {
  const c = (widget.config ?? {}) as { dimension?: unknown; options?: unknown; default?: unknown };
  if (typeof c.dimension !== "string" || !isMemberName(c.dimension)) return null;
  const isGrain = (v: unknown): v is TimeGranularity => typeof v === "string" && (TIME_GRANULARITIES as readonly string[]).includes(v);
  const options = Array.isArray(c.options) ? c.options.filter(isGrain) : ["day", "week", "month", "quarter", "year"].filter(isGrain);
  return { dimension: c.dimension, options: options.length ? options : ["month"], defaultGrain: isGrain(c.default) ? c.default : null };
}

export function TimeGrainWidget(props: { widget: DashboardWidget }) {
  const config = timeGrainConfigOf(props.widget);
  const store = useEmbedStoreApi();
  const locale = useEmbedStore((s) => s.locale);
  const current = useEmbedStore((s) => (config ? s.timeGrains[config.dimension] : undefined));
  if (!config) {
    return <WidgetFrame widget={props.widget} title={null} state="error" error={{ name: "ConfigInvalid", message: t(locale, "widget.noReport") }} variant="control" />;
  }
  const active = current ?? config.defaultGrain;
  const label = t(locale, "timeGrain.label");
  return (
    <WidgetFrame widget={props.widget} title={null} state="ready" variant="control">
      <div className="svc-filter">
        <span className="svc-filter-label">{label}</span>
        <div className="svc-segmented" role="radiogroup" aria-label={label}>
          {config.options.map((grain) => (
            <button
              key={grain}
              type="button"
              role="radio"
              aria-checked={active === grain}
              className={active === grain ? "is-active" : ""}
              onClick={() => store.getState().setTimeGrain(config.dimension, grain)}
            >
              {t(locale, `grain.${grain}` as MessageKey)}
            </button>
          ))}
        </div>
      </div>
    </WidgetFrame>
  );
}
