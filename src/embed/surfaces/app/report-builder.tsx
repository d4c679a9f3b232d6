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
import type { ReportSnapshot, PeriodComparison } from "../../../schema/dashboard";
import { useEmbedServices } from "../../shell/embed-context";
import { useEmbedStore } from "../../state/use-embed-store";
import { fetchDistinctValues, runQuery, type SemanticQuery } from "../../shell/platform-api";
import { WidgetHostContext, type WidgetHost } from "../../grid/widget-host";
import { ChartWidget } from "../../widgets/chart/chart-widget";
import { useApp, messageOf } from "./app-context";
import { useAppText } from "./app-messages";
import type { MetaMember, MetaSource } from "./app-api";
import { completeQueryOf } from "./report-draft-query";
import { chartSpecOf, semanticSqlOf, type Viz } from "./report-query";
import { QueryPanel } from "./report-query-panel";
import { ResultPanel } from "./report-result";
import { useReportDraft } from "./use-report-draft";
import "./report-builder.css";

export function ReportBuilder(props: { report: Report; canEdit: boolean }) {
  const { api, switches, notify } = useApp();
  const text = useAppText();
  const { api: embedApi, bridge } = useEmbedServices();
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

  const host = useMemo<WidgetHost>(
    () => ({
      deploymentId: api.deploymentId,
      reportsById: new Map(),
      allowExport: true,
      runQuery: (request, signal) => runQuery(embedApi, api.deploymentId, request, signal),
      distinctValues: async (member, search, signal) =>
        (await fetchDistinctValues(embedApi, api.deploymentId, { member, ...(search ? { search } : {}), limit: 100 }, signal)).values,
      settle: () => undefined,
      // The query is complete, so what fails here is the server's or the data's: the host hears of it.
      reportError: (error) => bridge.emitError(error),
      drilldown: () => undefined,
      downloaded: () => undefined,
    }),
    [api.deploymentId, embedApi, bridge],
  );
  // The builder's result renders through the dashboard's chart widget from a snapshot of the complete query.
  const snapshot = useMemo<ReportSnapshot>(
    () => ({
      id: 0,
      reportId: props.report.id,
      versionNumber: 0,
      name: draft.name,
      title: draft.name,
      kind,
      spec: spec ?? null,
      periodComparisons: comparisonsOf(draft.compare, q),
      preferences: { columnFormats: draft.formats },
      meta: { query: { ...q, limit: q.limit ?? 500 } },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- derived from the draft and its complete query (and the member titles of the data model)
    [draft.name, draft.viz, draft.formats, draft.compare, q, props.report.id, sources],
  );
  const widget = useMemo(
    () => ({ id: `report-${props.report.id}`, type: "CHART" as const, position: { x: 0, y: 0, w: 12, h: 6 }, config: { reportId: props.report.id } }),
    [props.report.id],
  );
  const hostWithReport = useMemo<WidgetHost>(() => ({ ...host, reportsById: new Map([[props.report.id, snapshot]]) }), [host, snapshot, props.report.id]);

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
          <WidgetHostContext.Provider value={hostWithReport}>
            <ChartWidget key={JSON.stringify(snapshot)} widget={widget} />
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
