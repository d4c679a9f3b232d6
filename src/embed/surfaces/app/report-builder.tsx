/**
 * The report builder: a semantic query built from the data model's views and members
 * (measures, several breakouts, a time dimension by period or part of time with a date range,
 * percent of total and a comparison with the previous period or year, calculated fields by a
 * formula (report-formula-editor.tsx), filters with the operators
 * of each member's type and member-aware value pickers, sort, limit), shown as a table, a pivot
 * with totals, a chart or a KPI (the one suggested for the result's shape until the creator picks
 * one). Edits autosave (`useReportDraft`). Only the complete part of the draft runs and is saved
 * (`runQueryOf`): a filter, breakout or calculation still being made is left out, so the builder
 * never sends a query the server refuses and a half-made one is never an error for the host. The
 * query runs under the viewer's row-level security (the API applies it), through the same chart
 * widget as dashboards.
 */
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Report } from "../../../schema/report";
import { WidgetHostContext } from "../../grid/widget-host";
import { DrilldownPanel } from "../../grid/drilldown-panel";
import { ChartWidget } from "../../widgets/chart/chart-widget";
import { useApp, messageOf } from "./app-context";
import { useAppText } from "./app-messages";
import type { MetaSource } from "./app-api";
import { withHumanTitles } from "./report-column-words";
import { semanticSqlOf } from "./report-query";
import { PivotView } from "./report-pivot-view";
import { QueryPanel } from "./report-query-panel";
import { ResultPanel } from "./report-result";
import { PREVIEW_LIMIT, useReportModel } from "./use-report-model";
import { useReportDraft } from "./use-report-draft";
import { useReportPreview } from "./use-report-preview";
import "./report-builder.css";
import { appQueries } from "./app-queries";

export function ReportBuilder(props: { report: Report; canEdit: boolean }) {
  const { api, switches, notify } = useApp();
  const text = useAppText();
  const model = useReportModel();
  const { draft, save, edit, editQuery, toggle } = useReportDraft(props.report, {
    canEdit: props.canEdit,
    inputOf: (d) => model.inputOf(d, props.report.name),
    save: (input) => api.saveReport(props.report.publicId, input),
    onSaveError: (message) => notify("error", text("saveFailed", { message })),
  });
  const { sources } = model;
  const view: MetaSource | undefined = sources.find((s) => s.name === draft.view) ?? sources[0];
  const run = model.runOf(draft);
  // Titles and types of the model's members and of the draft's calculated fields.
  const words = model.forDraft(draft);
  const q = run.query;
  const timeDim = q.timeDimensions?.[0];
  const runnable = !!(q.measures?.length || q.dimensions?.length || timeDim?.granularity || timeDim?.part || q.compare);
  const pivotRequest = useMemo(
    () => ({ query: { ...q, limit: q.limit ?? PREVIEW_LIMIT.pivot }, periodComparisons: run.periodComparisons }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- derived from the draft each render: its content is the key
    [JSON.stringify(q), JSON.stringify(run.periodComparisons)],
  );

  const preview = useReportPreview({
    deploymentId: api.deploymentId,
    reportId: props.report.id,
    draft,
    query: q,
    kind: run.kind,
    spec: run.viz === "pivot" ? null : run.spec,
    periodComparisons: run.periodComparisons,
    retitle: (result) => withHumanTitles(result, draft.compare, words.titleOf, text),
    onRows: model.onRows,
  });

  const generated = useQuery({ ...appQueries.sql(api, q), enabled: switches.showGeneratedSql && runnable });

  if (model.meta.isPending) return <div className="svc-app-skeleton" aria-busy="true" aria-label={text("loadingModel")} />;
  if (model.meta.isError) {
    return (
      <div className="svc-app-error" role="alert">
        {text("modelFailed", { message: messageOf(model.meta.error) })}
      </div>
    );
  }

  const empty = (title: string, hint?: string) => (
    <div className="svc-app-empty">
      <h3>{title}</h3>
      {hint ? <p>{hint}</p> : null}
    </div>
  );
  return (
    <div className="svc-app-builder" data-testid="report-builder" data-report-id={props.report.id}>
      <QueryPanel
        draft={draft}
        sources={sources}
        view={view}
        label={words.label}
        showMemberNames={switches.showMemberNames}
        canEdit={props.canEdit}
        edit={edit}
        editQuery={editQuery}
        toggle={toggle}
        leftOut={run.leftOut}
        workbookId={props.report.workbookId ?? null}
      />
      <ResultPanel
        draft={draft}
        viz={run.viz}
        suggested={run.suggested}
        query={q}
        save={save}
        canEdit={props.canEdit}
        edit={edit}
        semanticSql={switches.showSemanticSql && runnable ? semanticSqlOf(q, view?.name ?? null) : null}
        generatedSql={switches.showGeneratedSql && runnable ? (generated.data?.sql ?? (generated.isError ? messageOf(generated.error) : "…")) : null}
      >
        {!runnable ? (
          empty(text("pickMember"), text("pickMemberHint"))
        ) : run.viz === "pivot" && run.breakouts.length < 2 ? (
          empty(text("pivotNeeds"))
        ) : run.kind === "vega" && !run.spec ? (
          empty(text("chartNeeds"))
        ) : (
          <WidgetHostContext.Provider value={preview.host}>
            {run.viz === "pivot" ? (
              <PivotView
                request={pivotRequest}
                breakouts={run.breakouts}
                across={run.across}
                onAcrossChange={(pivotColumns) => edit({ pivotColumns })}
                canEdit={props.canEdit}
                measureTypeOf={words.ctx.measureTypeOf}
                formats={draft.formats}
              />
            ) : (
              <ChartWidget key={JSON.stringify(preview.snapshot)} widget={preview.widget} />
            )}
            {preview.drill ? <DrilldownPanel request={preview.drill} onClose={preview.closeDrill} /> : null}
          </WidgetHostContext.Provider>
        )}
      </ResultPanel>
    </div>
  );
}
