/**
 * The report builder's result: the chart choice (the suggested one marked), the number format and the save status above the
 * answer (the dashboard's chart widget over a snapshot of the complete query), and the query as
 * semantic and generated SQL when the switches show them.
 */
import type { ReactNode } from "react";
import type { ColumnFormatOverride } from "../../../schema/dashboard";
import type { SemanticQuery } from "../../shell/platform-api";
import { useAppText, type AppMessageKey } from "./app-messages";
import type { Viz } from "./report-query";
import type { ReportDraft, SaveState } from "./use-report-draft";

export interface ResultPanelProps {
  draft: ReportDraft;
  /** The chart shown: the creator's pick, or the suggestion while they have not picked one. */
  viz: Viz;
  /** The chart suggested for the result's shape (report-viz-suggestion.ts). */
  suggested: Viz;
  /** The complete part of the draft's query: what runs. */
  query: SemanticQuery;
  save: SaveState;
  canEdit: boolean;
  edit(next: Partial<ReportDraft> | ((d: ReportDraft) => Partial<ReportDraft>)): void;
  /** The answer (the chart widget), or an explanation of why there is none yet. */
  children: ReactNode;
  semanticSql: string | null;
  generatedSql: string | null;
}

const VIZ_NAMES: Record<Viz, AppMessageKey> = { table: "vizTable", pivot: "vizPivot", bar: "vizBar", line: "vizLine", area: "vizArea", kpi: "vizKpi" };
const FORMAT_NAMES: Record<ColumnFormatOverride["type"], AppMessageKey> = { number: "formatNumber", currency: "formatCurrency", percent: "formatPercent" };

export function ResultPanel(props: ResultPanelProps) {
  const text = useAppText();
  const { draft, canEdit, save, viz } = props;
  const first = props.query.measures?.[0];
  return (
    <section className="svc-app-builder-result" aria-label={text("resultPanel")}>
      <div className="svc-app-toolbar">
        <div className="svc-app-segmented" role="radiogroup" aria-label={text("showAs")}>
          {(Object.keys(VIZ_NAMES) as Viz[]).map((v) => (
            <button
              key={v}
              type="button"
              role="radio"
              aria-checked={viz === v}
              className={`${viz === v ? "is-active" : ""}${props.suggested === v ? " is-suggested" : ""}`}
              disabled={!canEdit}
              onClick={() => props.edit({ viz: v, vizAuto: false })}
              data-testid={`viz-${v}`}
            >
              {text(VIZ_NAMES[v])}
              {props.suggested === v ? <span className="svc-visually-hidden"> ({text("suggested")})</span> : null}
            </button>
          ))}
        </div>
        <span className="svc-app-suggestion" data-testid="viz-suggested" aria-hidden="true">
          {text("suggested")}: {text(VIZ_NAMES[props.suggested])}
        </span>
        {first ? (
          <select
            className="svc-app-input"
            aria-label={text("numberFormat")}
            disabled={!canEdit}
            value={draft.formats[first]?.type ?? ""}
            onChange={(e) =>
              props.edit((d) => {
                const formats = { ...d.formats };
                if (e.target.value)
                  formats[first] = { type: e.target.value as ColumnFormatOverride["type"], decimalPlaces: e.target.value === "percent" ? 1 : 0 };
                else delete formats[first];
                return { formats };
              })
            }
          >
            <option value="">{text("formatAuto")}</option>
            {Object.entries(FORMAT_NAMES).map(([type, key]) => (
              <option key={type} value={type}>
                {text(key)}
              </option>
            ))}
          </select>
        ) : null}
        <span className={`svc-app-save is-${save.status}`} role="status" data-testid="save-status" title={save.message}>
          {text(canEdit ? (save.status === "saving" ? "saving" : save.status === "error" ? "notSaved" : "saved") : "readOnly")}
        </span>
      </div>
      <div className="svc-app-result" data-testid="report-result">
        {props.children}
      </div>
      {props.semanticSql !== null ? (
        <details className="svc-app-sql" data-testid="semantic-sql">
          <summary>{text("semanticSql")}</summary>
          <pre>{props.semanticSql}</pre>
        </details>
      ) : null}
      {props.generatedSql !== null ? (
        <details className="svc-app-sql" data-testid="generated-sql">
          <summary>{text("generatedSql")}</summary>
          <pre>{props.generatedSql}</pre>
        </details>
      ) : null}
    </section>
  );
}
