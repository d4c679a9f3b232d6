/** KPI report: the headline value, its change against the comparison period, a sparkline. */
import type { CSSProperties } from "react";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { ArrowDownIcon, ArrowUpIcon } from "../../ui/icons";
import { formatPercent } from "../../i18n";
import { comparisonPhrase, type KpiFigures } from "./kpi";
import "../../ui/buttons.css";
import "./kpi-view.css";

export interface KpiViewProps {
  figures: KpiFigures;
  /** The value formatted (column format or annotation). */
  formatted: string;
  formattedPrevious: string | null;
  measureTitle: string;
  onDrill?: () => void;
}

function Sparkline(props: { series: number[] }) {
  const { series } = props;
  if (series.length < 2) return null;
  const min = Math.min(...series);
  const max = Math.max(...series);
  const span = max - min || 1;
  const points = series.map((v, i) => `${((i / (series.length - 1)) * 100).toFixed(2)},${(28 - ((v - min) / span) * 26).toFixed(2)}`);
  return (
    <svg className="svc-kpi-spark" viewBox="0 0 100 30" preserveAspectRatio="none" aria-hidden="true">
      <polyline points={`0,30 ${points.join(" ")} 100,30`} className="svc-kpi-spark-area" />
      <polyline points={points.join(" ")} className="svc-kpi-spark-line" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

export function KpiView(props: KpiViewProps) {
  const locale = useEmbedStore((s) => s.locale);
  const { figures } = props;
  const change = figures.change;
  const trend = change === null ? "flat" : change > 0 ? "up" : change < 0 ? "down" : "flat";
  // The value's length sizes its font to the card (kpi-view.css).
  const sized = { "--svc-kpi-chars": Math.max(4, props.formatted.length) } as CSSProperties;
  return (
    <div className="svc-kpi" style={sized}>
      <div className="svc-kpi-main">
        {props.onDrill && figures.value !== null ? (
          <button
            type="button"
            className="svc-kpi-value svc-drill-button"
            onClick={props.onDrill}
            title={t(locale, "drillDown")}
            aria-label={`${props.measureTitle}: ${props.formatted}`}
          >
            {props.formatted}
          </button>
        ) : (
          <span className="svc-kpi-value">{props.formatted}</span>
        )}
        {change !== null ? (
          <span className={`svc-kpi-change is-${trend}`}>
            {trend === "up" ? <ArrowUpIcon size={12} /> : trend === "down" ? <ArrowDownIcon size={12} /> : null}
            {formatPercent(locale, Math.abs(change), { decimalPlaces: 1 })}
          </span>
        ) : null}
      </div>
      {figures.comparisonOffset && props.formattedPrevious !== null ? (
        <p className="svc-kpi-compare">{comparisonPhrase(locale, figures.comparisonOffset, props.formattedPrevious)}</p>
      ) : null}
      <Sparkline series={figures.series} />
    </div>
  );
}
