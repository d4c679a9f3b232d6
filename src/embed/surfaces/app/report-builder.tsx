/**
 * The report builder: a semantic query built from the data model's views and members
 * (measures, dimensions, a time dimension by period or part of time with a date range, filters
 * with the operators of each member's type and member-aware value pickers, sort, limit), shown
 * as a table, chart or KPI with column formats and a period comparison. Edits autosave
 * (`useReportDraft`). Only the complete part of the draft runs and is saved (`completeQueryOf`):
 * a filter still being made is left out, so the builder never sends a query the server refuses
 * and a half-made filter is never an error for the host. The query runs under the viewer's
 * row-level security (the API applies it), through the same chart widget as dashboards.
 */
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Report } from "../../../schema/report";
import type { PeriodComparison } from "../../../schema/dashboard";
import { useEmbedStore } from "../../state/use-embed-store";
import type { SemanticQuery } from "../../shell/platform-api";
import { WidgetHostContext } from "../../grid/widget-host";
import { ChartWidget } from "../../widgets/chart/chart-widget";
import { useApp, messageOf } from "./app-context";
import { useAppText } from "./app-messages";
import type { MetaMember, MetaSource } from "./app-api";
import { completeQueryOf } from "./report-draft-query";
import { chartSpecOf, semanticSqlOf, type Viz } from "./report-query";
import { QueryPanel } from "./report-query-panel";
import { ResultPanel } from "./report-result";
import { useReportDraft } from "./use-report-draft";
import { useReportPreview } from "./use-report-preview";
import "./report-builder.css";

export function ReportBuilder(props: { report: Report; canEdit: boolean }) {
  const { api, switches, notify } = useApp();
  const text = useAppText();
  const locale = useEmbedStore((s) => s.locale);
  const meta = useQuery({ queryKey: ["app", api.deploymentId, "meta"], queryFn: () => api.meta(), staleTime: 60_000 });
  const sources = useMemo(() => meta.data?.sources ?? [], [meta.data]);
  const allMembers = useMemo(() => new Map(sources.flatMap((s) => [...s.measures, ...s.dimensions]).map((m) => [m.name, m])), [sources]);
  const typeOf = (name: string) => allMembers.get(name)?.type;
  const { draft, save, edit, editQuery, toggle } = useReportDraft(props.report, {
    canEdit: props.canEdit,
    inputOf: (d) => {
      const query = completeQueryOf(d.query, typeOf);
      return {
        name: d.name.trim() || props.report.name,
        kind: kindOf(d.viz),
        query: { ...query },
        spec: kindOf(d.viz) === "vega" ? chartSpecOf(d.viz, query, titleOf, locale) : null,
        preferences: { columnFormats: d.formats },
        periodComparisons: comparisonsOf(d.compare, query),
      };
    },
    save: (input) => api.saveReport(props.report.publicId, input),
    onSaveError: (message) => notify("error", text("saveFailed", { message })),
  });
  const view: MetaSource | undefined = sources.find((s) => s.name === draft.view) ?? sources[0];
  const label = (m: MetaMember | string) => {
    const member = typeof m === "string" ? allMembers.get(m) : m;
    if (!member) return String(m);
    return switches.showMemberNames ? `${member.shortTitle || member.title} (${member.name})` : member.shortTitle || member.title;
  };
  const titleOf = (name: string) => allMembers.get(name)?.shortTitle ?? allMembers.get(name)?.title ?? name;

  // eslint-disable-next-line react-hooks/exhaustive-deps -- member types come from the data model's members
  const q = useMemo(() => completeQueryOf(draft.query, typeOf), [draft.query, allMembers]);
  const timeDim = q.timeDimensions?.[0];
  const kind = kindOf(draft.viz);
  const spec = kind === "vega" ? chartSpecOf(draft.viz, q, titleOf, locale) : null;
  const runnable = !!(q.measures?.length || q.dimensions?.length || timeDim?.granularity || timeDim?.part);

  const preview = useReportPreview({
    deploymentId: api.deploymentId,
    reportId: props.report.id,
    draft,
    query: q,
    kind,
    spec,
    periodComparisons: comparisonsOf(draft.compare, q),
  });

  const generated = useQuery({
    queryKey: ["app", api.deploymentId, "sql", JSON.stringify(q)],
    queryFn: () => api.sql(q),
    enabled: switches.showGeneratedSql && runnable,
    retry: false,
  });

  if (meta.isPending) return <div className="svc-app-skeleton" aria-busy="true" aria-label={text("loadingModel")} />;
  if (meta.isError) {
    return (
      <div className="svc-app-error" role="alert">
        {text("modelFailed", { message: messageOf(meta.error) })}
      </div>
    );
  }

  return (
    <div className="svc-app-builder" data-testid="report-builder" data-report-id={props.report.id}>
      <QueryPanel
        draft={draft}
        sources={sources}
        view={view}
        label={label}
        showMemberNames={switches.showMemberNames}
        canEdit={props.canEdit}
        edit={edit}
        editQuery={editQuery}
        toggle={toggle}
      />
      <ResultPanel
        draft={draft}
        query={q}
        save={save}
        canEdit={props.canEdit}
        edit={edit}
        semanticSql={switches.showSemanticSql && runnable ? semanticSqlOf(q, view?.name ?? null) : null}
        generatedSql={switches.showGeneratedSql && runnable ? (generated.data?.sql ?? (generated.isError ? messageOf(generated.error) : "…")) : null}
      >
        {!runnable ? (
          <div className="svc-app-empty">
            <h3>{text("pickMember")}</h3>
            <p>{text("pickMemberHint")}</p>
          </div>
        ) : kind === "vega" && !spec ? (
          <div className="svc-app-empty">
            <h3>{text("chartNeeds")}</h3>
          </div>
        ) : (
          <WidgetHostContext.Provider value={preview.host}>
            <ChartWidget key={JSON.stringify(preview.snapshot)} widget={preview.widget} />
          </WidgetHostContext.Provider>
        )}
      </ResultPanel>
    </div>
  );
}

const kindOf = (viz: Viz) => (viz === "table" ? "table" : viz === "kpi" ? "kpi" : "vega");

/** The comparison with the year before, of the first measure by a period of the time dimension. */
function comparisonsOf(compare: boolean, q: SemanticQuery): PeriodComparison[] | null {
  const td = q.timeDimensions?.[0];
  return compare && td?.granularity && q.measures?.[0] ? [{ measure: q.measures[0], timeDimension: td.dimension, offset: { amount: 1, unit: "year" } }] : null;
}
