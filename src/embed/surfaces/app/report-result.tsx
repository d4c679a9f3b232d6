/**
 * The report builder's result: the chart choice, the number format and the save status above the
 * answer (the dashboard's chart widget over a snapshot of the complete query), and the query as
 * semantic and generated SQL when the switches show them.
 */
import type { ReactNode } from "react";
import type { ColumnFormatOverride } from "../../../schema/dashboard";
import type { SemanticQuery } from "../../shell/platform-api";
import type { Viz } from "./report-query";
import type { ReportDraft, SaveState } from "./use-report-draft";

export interface ResultPanelProps {
  draft: ReportDraft;
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

export function ResultPanel(props: ResultPanelProps) {
  const { draft, canEdit, save } = props;
  const first = props.query.measures?.[0];
  return (
    <section className="svc-app-builder-result" aria-label="Result">
      <div className="svc-app-toolbar">
        <div className="svc-app-segmented" role="radiogroup" aria-label="Show as">
          {(["table", "bar", "line", "area", "kpi"] as Viz[]).map((v) => (
            <button
              key={v}
              type="button"
              role="radio"
              aria-checked={draft.viz === v}
              className={draft.viz === v ? "is-active" : ""}
              disabled={!canEdit}
              onClick={() => props.edit({ viz: v })}
              data-testid={`viz-${v}`}
            >
              {v === "kpi" ? "KPI" : v[0]!.toUpperCase() + v.slice(1)}
            </button>
          ))}
        </div>
        {first ? (
          <select
            className="svc-app-input"
            aria-label="Number format"
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
            <option value="">Format: automatic</option>
            <option value="number">Number</option>
            <option value="currency">Currency</option>
            <option value="percent">Percent</option>
          </select>
        ) : null}
        <span className={`svc-app-save is-${save.status}`} role="status" data-testid="save-status" title={save.message}>
          {canEdit ? (save.status === "saving" ? "Saving…" : save.status === "error" ? "Not saved" : "Saved") : "Read only"}
        </span>
      </div>
      <div className="svc-app-result" data-testid="report-result">
        {props.children}
      </div>
      {props.semanticSql !== null ? (
        <details className="svc-app-sql" data-testid="semantic-sql">
          <summary>Semantic SQL</summary>
          <pre>{props.semanticSql}</pre>
        </details>
      ) : null}
      {props.generatedSql !== null ? (
        <details className="svc-app-sql" data-testid="generated-sql">
          <summary>Generated SQL</summary>
          <pre>{props.generatedSql}</pre>
        </details>
      ) : null}
    </section>
  );
}
