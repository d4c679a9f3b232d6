/**
 * The report builder: a semantic query built from the data model's views and members
 * (measures, dimensions, a time dimension by period or part of time with a date range, filters
 * with the operators of each member's type and member-aware value pickers, sort, limit), shown
 * as a table, chart or KPI with column formats and a period comparison. Edits autosave
 * (`useReportDraft`). The query runs under the viewer's row-level security (the API applies it),
 * through the same chart widget as dashboards.
 */
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import type { Report } from "../../../schema/report";
import type { ReportSnapshot, ColumnFormatOverride, PeriodComparison } from "../../../schema/dashboard";
import { useEmbedServices } from "../../shell/embed-context";
import { useEmbedStore } from "../../state/use-embed-store";
import { fetchDistinctValues, runQuery } from "../../shell/platform-api";
import { WidgetHostContext, type WidgetHost } from "../../grid/widget-host";
import { ChartWidget } from "../../widgets/chart/chart-widget";
import { useApp, messageOf } from "./app-context";
import type { MetaMember, MetaSource } from "./app-api";
import { FiltersPanel } from "./report-filters-panel";
import { chartSpecOf, semanticSqlOf, type Viz } from "./report-query";
import { SortPanel } from "./report-sort-panel";
import { TimePanel } from "./report-time-panel";
import { useReportDraft } from "./use-report-draft";

export function ReportBuilder(props: { report: Report; canEdit: boolean }) {
  const { api, switches, notify } = useApp();
  const { api: embedApi, bridge } = useEmbedServices();
  const locale = useEmbedStore((s) => s.locale);
  const meta = useQuery({ queryKey: ["app", api.deploymentId, "meta"], queryFn: () => api.meta(), staleTime: 60_000 });
  const { draft, save, edit, editQuery, toggle } = useReportDraft(props.report, {
    canEdit: props.canEdit,
    inputOf: (d) => ({
      name: d.name.trim() || props.report.name,
      kind,
      query: d.query as Record<string, unknown>,
      spec: spec ?? null,
      preferences: { columnFormats: d.formats },
      periodComparisons,
    }),
    save: (input) => api.saveReport(props.report.publicId, input),
    onSaveError: (message) => notify("error", `Not saved: ${message}. Your changes are kept; they are saved with the next edit.`),
  });
  const sources = useMemo(() => meta.data?.sources ?? [], [meta.data]);
  const view: MetaSource | undefined = sources.find((s) => s.name === draft.view) ?? sources[0];
  const allMembers = useMemo(() => new Map(sources.flatMap((s) => [...s.measures, ...s.dimensions]).map((m) => [m.name, m])), [sources]);
  const label = (m: MetaMember | string) => {
    const member = typeof m === "string" ? allMembers.get(m) : m;
    if (!member) return String(m);
    return switches.showMemberNames ? `${member.shortTitle || member.title} (${member.name})` : member.shortTitle || member.title;
  };
  const titleOf = (name: string) => allMembers.get(name)?.shortTitle ?? allMembers.get(name)?.title ?? name;

  const q = draft.query;
  const timeDim = q.timeDimensions?.[0];
  const kind = draft.viz === "table" ? "table" : draft.viz === "kpi" ? "kpi" : "vega";
  const spec = kind === "vega" ? chartSpecOf(draft.viz, q, titleOf, locale) : null;
  const periodComparisons: PeriodComparison[] | null =
    draft.compare && timeDim?.granularity && q.measures?.[0]
      ? [{ measure: q.measures[0], timeDimension: timeDim.dimension, offset: { amount: 1, unit: "year" } }]
      : null;
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
      reportError: (error) => bridge.emitError(error),
      drilldown: () => undefined,
      downloaded: () => undefined,
    }),
    [api.deploymentId, embedApi, bridge],
  );
  // The builder's result renders through the dashboard's chart widget from a snapshot of the draft.
  const snapshot = useMemo<ReportSnapshot>(
    () => ({
      id: 0,
      reportId: props.report.id,
      versionNumber: 0,
      name: draft.name,
      title: draft.name,
      kind,
      spec: spec ?? null,
      periodComparisons,
      preferences: { columnFormats: draft.formats },
      meta: { query: { ...q, limit: q.limit ?? 500 } },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- derived from the draft (and the member titles of the data model)
    [draft, kind, props.report.id, sources],
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

  if (meta.isPending) return <div className="svc-app-skeleton" aria-busy="true" aria-label="Loading the data model" />;
  if (meta.isError) {
    return (
      <div className="svc-app-error" role="alert">
        The data model could not be loaded: {messageOf(meta.error)}
      </div>
    );
  }

  const timeMembers = view ? view.dimensions.filter((d) => d.type === "time") : [];
  const plainDims = view ? view.dimensions.filter((d) => d.type !== "time") : [];
  const members = view ? [...view.dimensions, ...view.measures] : [];

  return (
    <div className="svc-app-builder" data-testid="report-builder" data-report-id={props.report.id}>
      <aside className="svc-app-builder-panel" aria-label="Query">
        <label className="svc-app-field">
          <span>Report name</span>
          <input
            className="svc-app-input"
            value={draft.name}
            disabled={!props.canEdit}
            onChange={(e) => edit({ name: e.target.value })}
            data-testid="report-name"
          />
        </label>
        <label className="svc-app-field">
          <span>View</span>
          <select
            className="svc-app-input"
            value={view?.name ?? ""}
            disabled={!props.canEdit}
            onChange={(e) => edit({ view: e.target.value, query: {} })}
            data-testid="view-select"
          >
            {sources.map((s) => (
              <option key={s.name} value={s.name}>
                {switches.showMemberNames ? `${s.title} (${s.name})` : s.title}
              </option>
            ))}
          </select>
          {view?.description ? <small className="svc-app-muted">{view.description}</small> : null}
        </label>
        <fieldset className="svc-app-fieldset" disabled={!props.canEdit}>
          <legend>Measures</legend>
          {view?.measures.map((m) => (
            <label key={m.name} className="svc-app-check-row" title={m.description ?? ""}>
              <input type="checkbox" checked={q.measures?.includes(m.name) ?? false} onChange={() => toggle("measures", m.name)} data-member={m.name} />
              {label(m)}
            </label>
          ))}
        </fieldset>
        <fieldset className="svc-app-fieldset" disabled={!props.canEdit}>
          <legend>Dimensions</legend>
          {plainDims.map((m) => (
            <label key={m.name} className="svc-app-check-row" title={m.description ?? ""}>
              <input type="checkbox" checked={q.dimensions?.includes(m.name) ?? false} onChange={() => toggle("dimensions", m.name)} data-member={m.name} />
              {label(m)}
            </label>
          ))}
        </fieldset>
        {timeMembers.length ? (
          <TimePanel
            members={timeMembers}
            value={timeDim}
            label={label}
            disabled={!props.canEdit}
            onChange={(td) => editQuery((cur) => ({ ...cur, timeDimensions: td ? [td] : [] }))}
            compare={draft.compare}
            onCompareChange={(compare) => edit({ compare })}
          />
        ) : null}
        <FiltersPanel
          filters={q.filters ?? []}
          members={members}
          label={label}
          disabled={!props.canEdit}
          onChange={(filters) => editQuery((cur) => ({ ...cur, filters }))}
        />
        <SortPanel query={q} label={label} disabled={!props.canEdit} onChange={editQuery} />
      </aside>

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
                disabled={!props.canEdit}
                onClick={() => edit({ viz: v })}
                data-testid={`viz-${v}`}
              >
                {v === "kpi" ? "KPI" : v[0]!.toUpperCase() + v.slice(1)}
              </button>
            ))}
          </div>
          {q.measures?.length ? (
            <select
              className="svc-app-input"
              aria-label="Number format"
              disabled={!props.canEdit}
              value={draft.formats[q.measures[0]!]?.type ?? ""}
              onChange={(e) =>
                edit((d) => {
                  const formats = { ...d.formats };
                  if (e.target.value)
                    formats[q.measures![0]!] = { type: e.target.value as ColumnFormatOverride["type"], decimalPlaces: e.target.value === "percent" ? 1 : 0 };
                  else delete formats[q.measures![0]!];
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
            {props.canEdit ? (save.status === "saving" ? "Saving…" : save.status === "error" ? "Not saved" : "Saved") : "Read only"}
          </span>
        </div>
        <div className="svc-app-result" data-testid="report-result">
          {!runnable ? (
            <div className="svc-app-empty">
              <h3>Pick a measure or a dimension</h3>
              <p>The answer appears here as you build the question.</p>
            </div>
          ) : kind === "vega" && !spec ? (
            <div className="svc-app-empty">
              <h3>A chart needs a measure and a dimension or time</h3>
            </div>
          ) : (
            <WidgetHostContext.Provider value={hostWithReport}>
              <ChartWidget key={JSON.stringify(snapshot)} widget={widget} />
            </WidgetHostContext.Provider>
          )}
        </div>
        {switches.showSemanticSql && runnable ? (
          <details className="svc-app-sql" data-testid="semantic-sql">
            <summary>Semantic SQL</summary>
            <pre>{semanticSqlOf(q, view?.name ?? null)}</pre>
          </details>
        ) : null}
        {switches.showGeneratedSql && runnable ? (
          <details className="svc-app-sql" data-testid="generated-sql">
            <summary>Generated SQL</summary>
            <pre>{generated.data?.sql ?? (generated.isError ? messageOf(generated.error) : "…")}</pre>
          </details>
        ) : null}
      </section>
    </div>
  );
}
