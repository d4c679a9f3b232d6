/**
 * The workbook's dashboard: the draft on react-grid-layout (drag, resize, per-breakpoint
 * layouts), every widget type addable and configurable, undo/redo, an autosaved draft, preview
 * and publish; and the published view, rendered exactly as the dashboard surface renders it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Responsive, useContainerWidth, type Layout } from "react-grid-layout";
import type { DashboardConfig, DashboardWidget, DashboardWidgetType, ReportSnapshot, BreakpointKey } from "../../../schema/dashboard";
import type { Report } from "../../../schema/report";
import { useEmbedServices } from "../../shell/embed-context";
import { fetchDistinctValues, runQuery } from "../../shell/platform-api";
import { WidgetHostContext, type WidgetHost } from "../../grid/widget-host";
import { WidgetRenderer } from "../../grid/widget-renderer";
import { DashboardGrid } from "../../grid/dashboard-grid";
import { buildGridLayouts, resolveGridConfig } from "../../grid/grid-layouts";
import { useApp, messageOf } from "./app-context";
import type { AppWorkbook } from "./app-api";
import { GridIcon, GripIcon, RedoIcon, UndoIcon } from "./app-icons";
import "../../grid/dashboard-grid.css";

const WIDGET_LABEL: Record<DashboardWidgetType, string> = {
  CHART: "Chart",
  TEXT: "Text",
  FILTER: "Filter",
  TIME_GRAIN: "Time grain",
  TABS_CONTAINER: "Tabs",
  AI: "AI",
};
const DEFAULT_SIZE: Record<DashboardWidgetType, { w: number; h: number }> = {
  CHART: { w: 6, h: 5 },
  TEXT: { w: 6, h: 2 },
  FILTER: { w: 3, h: 2 },
  TIME_GRAIN: { w: 3, h: 2 },
  TABS_CONTAINER: { w: 12, h: 6 },
  AI: { w: 6, h: 4 },
};

function snapshotOfReport(r: Report): ReportSnapshot {
  return {
    id: r.id,
    reportId: r.id,
    versionNumber: r.versionNumber,
    name: r.name,
    title: r.title ?? r.name,
    description: r.description,
    kind: r.kind,
    spec: r.spec,
    fillMissingRows: r.fillMissingRows,
    periodComparisons: r.periodComparisons,
    preferences: r.preferences,
    meta: { ...(r.meta ?? {}), query: r.query },
  };
}

function useWidgetHost(snapshots: ReportSnapshot[]): WidgetHost {
  const { api: appApi } = useApp();
  const { api, bridge } = useEmbedServices();
  return useMemo<WidgetHost>(
    () => ({
      deploymentId: appApi.deploymentId,
      reportsById: new Map(snapshots.map((s) => [s.reportId, s])),
      allowExport: true,
      runQuery: (request, signal) => runQuery(api, appApi.deploymentId, request, signal),
      distinctValues: async (member, search, signal) =>
        (await fetchDistinctValues(api, appApi.deploymentId, { member, ...(search ? { search } : {}), limit: 200 }, signal)).values,
      settle: () => undefined,
      reportError: (error) => bridge.emitError(error),
      drilldown: () => undefined,
      downloaded: (event) => bridge.emit("svc:event:download", event),
    }),
    [api, appApi.deploymentId, bridge, snapshots],
  );
}

function nextY(widgets: DashboardWidget[]): number {
  return widgets.reduce((m, w) => Math.max(m, w.position.y + w.position.h), 0);
}

export function DashboardEditor(props: { workbook: AppWorkbook; reports: Report[]; canEdit: boolean }) {
  const { api, notify, refresh, switches, go } = useApp();
  const initial = useMemo<DashboardConfig>(
    () => props.workbook.dashboardDraft ?? props.workbook.dashboardPublished ?? { title: props.workbook.name, widgets: [] },
    // The draft is loaded once; after that the editor's copy is the truth and is saved back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [props.workbook.id],
  );
  const [history, setHistory] = useState<{ past: DashboardConfig[]; now: DashboardConfig; future: DashboardConfig[] }>({ past: [], now: initial, future: [] });
  const config = history.now;
  const widgets = useMemo(() => config.widgets ?? [], [config.widgets]);
  const [selected, setSelected] = useState<string | null>(null);
  const [preview, setPreview] = useState(false);
  const [save, setSave] = useState<{ status: "saved" | "saving" | "error"; message?: string }>({ status: "saved" });
  const [publishing, setPublishing] = useState(false);
  const dirty = useRef(false);
  const snapshots = useMemo(() => props.reports.map(snapshotOfReport), [props.reports]);
  const host = useWidgetHost(snapshots);

  const change = useCallback((fn: (c: DashboardConfig) => DashboardConfig) => {
    dirty.current = true;
    setHistory((h) => ({ past: [...h.past, h.now].slice(-100), now: fn(h.now), future: [] }));
  }, []);
  const undo = () =>
    setHistory((h) =>
      h.past.length ? ((dirty.current = true), { past: h.past.slice(0, -1), now: h.past[h.past.length - 1]!, future: [h.now, ...h.future] }) : h,
    );
  const redo = () =>
    setHistory((h) => (h.future.length ? ((dirty.current = true), { past: [...h.past, h.now], now: h.future[0]!, future: h.future.slice(1) }) : h));

  // Autosave the draft a moment after the last change; the editor keeps its copy whatever the answer.
  useEffect(() => {
    if (!dirty.current || !props.canEdit) return;
    setSave({ status: "saving" });
    const timer = setTimeout(() => {
      api.saveDraft(props.workbook.id, config).then(
        () => setSave({ status: "saved" }),
        (error: unknown) => {
          setSave({ status: "error", message: messageOf(error) });
          notify("error", `Draft not saved: ${messageOf(error)}. Your changes are kept.`);
        },
      );
    }, 600);
    return () => clearTimeout(timer);
  }, [config, api, props.workbook.id, props.canEdit, notify]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== "z") return;
      const target = e.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      e.preventDefault();
      if (e.shiftKey) redo();
      else undo();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const add = (type: DashboardWidgetType) => {
    const id = `${type.toLowerCase()}-${Date.now().toString(36)}`;
    const size = DEFAULT_SIZE[type];
    const firstReport = props.reports[0];
    const cfg: Record<string, unknown> =
      type === "CHART"
        ? { reportId: firstReport?.id ?? null }
        : type === "TEXT"
          ? { markdown: "## Heading\nWrite **markdown** here." }
          : type === "TABS_CONTAINER"
            ? { tabs: [{ id: "tab-1", title: "Tab 1", widgets: [] }] }
            : type === "AI"
              ? { question: "" }
              : {};
    change((c) => ({ ...c, widgets: [...(c.widgets ?? []), { id, type, position: { x: 0, y: nextY(c.widgets ?? []), ...size }, config: cfg }] }));
    setSelected(id);
  };
  const updateWidget = (id: string, fn: (w: DashboardWidget) => DashboardWidget) =>
    change((c) => ({ ...c, widgets: (c.widgets ?? []).map((w) => (w.id === id ? fn(w) : w)) }));
  const removeWidget = (id: string) => {
    change((c) => ({ ...c, widgets: (c.widgets ?? []).filter((w) => w.id !== id) }));
    setSelected(null);
  };

  const publish = async () => {
    setPublishing(true);
    try {
      await api.saveDraft(props.workbook.id, config);
      await api.publish(props.workbook.id);
      await refresh();
      notify("ok", "Published");
      go({ kind: "published", workbookId: props.workbook.id });
    } catch (error) {
      notify("error", `Not published: ${messageOf(error)}`);
    } finally {
      setPublishing(false);
    }
  };

  const selectedWidget = widgets.find((w) => w.id === selected) ?? null;
  const editing = props.canEdit && !preview;

  return (
    <WidgetHostContext.Provider value={host}>
      <div className="svc-app-editor" data-testid="dashboard-editor">
        <div className="svc-app-toolbar">
          {editing ? (
            <div className="svc-app-add" role="group" aria-label="Add widget">
              {(Object.keys(WIDGET_LABEL) as DashboardWidgetType[]).map((type) => (
                <button key={type} type="button" className="svc-button is-small" onClick={() => add(type)} data-testid={`add-${type.toLowerCase()}`}>
                  + {WIDGET_LABEL[type]}
                </button>
              ))}
            </div>
          ) : null}
          <span className="svc-app-tabs-spacer" />
          {props.canEdit ? (
            <>
              <button type="button" className="svc-icon-button" aria-label="Undo" disabled={!history.past.length} onClick={undo} data-testid="undo">
                <UndoIcon />
              </button>
              <button type="button" className="svc-icon-button" aria-label="Redo" disabled={!history.future.length} onClick={redo} data-testid="redo">
                <RedoIcon />
              </button>
              <span className={`svc-app-save is-${save.status}`} role="status" data-testid="draft-status" title={save.message}>
                {save.status === "saving" ? "Saving…" : save.status === "error" ? "Not saved" : "Draft saved"}
              </span>
              <button type="button" className="svc-button" aria-pressed={preview} onClick={() => setPreview((p) => !p)} data-testid="preview">
                {preview ? "Edit" : "Preview"}
              </button>
              <button type="button" className="svc-button is-primary" disabled={publishing} onClick={() => void publish()} data-testid="publish">
                {publishing ? "Publishing…" : "Publish"}
              </button>
            </>
          ) : (
            <span className="svc-app-muted">Read only</span>
          )}
        </div>
        {switches.showDashboardSettings && editing ? (
          <div className="svc-app-inline svc-app-dash-settings">
            <label className="svc-app-field is-inline">
              <span>Title</span>
              <input
                className="svc-app-input"
                value={config.title ?? ""}
                onChange={(e) => change((c) => ({ ...c, title: e.target.value }))}
                data-testid="dashboard-title"
              />
            </label>
          </div>
        ) : null}
        <div className="svc-app-editor-body">
          <div className="svc-app-canvas">
            {widgets.length === 0 ? (
              <div className="svc-app-empty" data-testid="dashboard-empty">
                <div className="svc-app-empty-icon" aria-hidden="true">
                  <GridIcon size={28} />
                </div>
                <h3>An empty dashboard</h3>
                <p>
                  {props.reports.length
                    ? "Add a chart of one of this workbook's reports, text, filters and more."
                    : "Create a report first, then add it here as a chart."}
                </p>
              </div>
            ) : (
              <EditableGrid
                widgets={widgets}
                layout={config.layout}
                editing={editing}
                selected={selected}
                onSelect={setSelected}
                onLayout={(next) => change((c) => ({ ...c, widgets: next }))}
              />
            )}
          </div>
          {editing && selectedWidget ? (
            <WidgetInspector
              widget={selectedWidget}
              reports={props.reports}
              onChange={(fn) => updateWidget(selectedWidget.id, fn)}
              onRemove={() => removeWidget(selectedWidget.id)}
              onClose={() => setSelected(null)}
            />
          ) : null}
        </div>
      </div>
    </WidgetHostContext.Provider>
  );
}

function EditableGrid(props: {
  widgets: DashboardWidget[];
  layout: DashboardConfig["layout"];
  editing: boolean;
  selected: string | null;
  onSelect(id: string | null): void;
  onLayout(widgets: DashboardWidget[]): void;
}) {
  const { width, containerRef, mounted } = useContainerWidth({ initialWidth: typeof window === "undefined" ? 1280 : window.innerWidth });
  const config = useMemo(() => resolveGridConfig(props.layout), [props.layout]);
  const layouts = useMemo(() => buildGridLayouts(props.widgets, config), [props.widgets, config]);
  const breakpoint = useRef<BreakpointKey>("lg");
  const renderGrid = useCallback((ws: DashboardWidget[]) => <DashboardGrid widgets={ws} layout={props.layout} nested />, [props.layout]);
  const { widgets, onLayout } = props;
  const commit = useCallback(
    (layout: Layout) => {
      const bp = breakpoint.current;
      const byId = new Map(layout.map((l) => [l.i, l]));
      let changed = false;
      const next = widgets.map((w) => {
        const l = byId.get(w.id);
        if (!l) return w;
        const pos = { x: l.x, y: l.y, w: l.w, h: l.h };
        if (bp === "lg") {
          if (pos.x === w.position.x && pos.y === w.position.y && pos.w === w.position.w && pos.h === w.position.h) return w;
          changed = true;
          return { ...w, position: pos };
        }
        const old = w.responsiveLayouts?.[bp];
        if (old && old.x === pos.x && old.y === pos.y && old.w === pos.w && old.h === pos.h) return w;
        changed = true;
        return { ...w, responsiveLayouts: { ...(w.responsiveLayouts ?? {}), [bp]: pos } };
      });
      if (changed) onLayout(next);
    },
    [widgets, onLayout],
  );
  return (
    <div className={props.editing ? "svc-grid is-editing" : "svc-grid"} ref={containerRef}>
      {mounted ? (
        <Responsive
          width={width}
          breakpoints={config.breakpoints}
          cols={config.cols}
          layouts={layouts}
          rowHeight={config.rowHeight}
          margin={config.margin}
          containerPadding={config.containerPadding}
          dragConfig={{ enabled: props.editing, handle: ".svc-app-drag" }}
          resizeConfig={{ enabled: props.editing }}
          onBreakpointChange={(bp) => (breakpoint.current = bp as BreakpointKey)}
          onDragStop={(layout) => commit(layout)}
          onResizeStop={(layout) => commit(layout)}
        >
          {props.widgets.map((w) => (
            <div
              key={w.id}
              className={props.selected === w.id ? "svc-grid-item svc-app-widget is-selected" : "svc-grid-item svc-app-widget"}
              data-testid={`widget-${w.id}`}
              data-widget-type={w.type}
            >
              {props.editing ? (
                <div className="svc-app-widget-bar">
                  <span className="svc-app-drag" title="Drag to move" aria-hidden="true">
                    <GripIcon size={12} /> {WIDGET_LABEL[w.type]}
                  </span>
                  <button
                    type="button"
                    className="svc-app-widget-edit"
                    onClick={() => props.onSelect(w.id)}
                    aria-label={`Configure ${WIDGET_LABEL[w.type]} widget`}
                  >
                    Configure
                  </button>
                </div>
              ) : null}
              <div className="svc-app-widget-body">
                <WidgetRenderer widget={w} renderGrid={renderGrid} />
              </div>
            </div>
          ))}
        </Responsive>
      ) : null}
    </div>
  );
}

function WidgetInspector(props: {
  widget: DashboardWidget;
  reports: Report[];
  onChange(fn: (w: DashboardWidget) => DashboardWidget): void;
  onRemove(): void;
  onClose(): void;
}) {
  const { api } = useApp();
  const w = props.widget;
  const cfg = (w.config ?? {}) as Record<string, unknown>;
  const set = (patch: Record<string, unknown>) => props.onChange((x) => ({ ...x, config: { ...(x.config ?? {}), ...patch } }));
  const [members, setMembers] = useState<{ name: string; title: string; type: string }[]>([]);
  useEffect(() => {
    if (w.type !== "FILTER" && w.type !== "TIME_GRAIN") return;
    let cancelled = false;
    api.meta().then(
      (m) =>
        !cancelled &&
        setMembers(m.sources.flatMap((s) => s.dimensions.map((d) => ({ name: d.name, title: `${s.title}: ${d.shortTitle || d.title}`, type: d.type })))),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [api, w.type]);
  return (
    <aside className="svc-app-inspector" aria-label="Widget settings" data-testid="widget-inspector">
      <div className="svc-app-inspector-head">
        <h3>{WIDGET_LABEL[w.type]}</h3>
        <button type="button" className="svc-icon-button" aria-label="Close" onClick={props.onClose}>
          ×
        </button>
      </div>
      {w.type === "CHART" ? (
        <>
          <label className="svc-app-field">
            <span>Report</span>
            <select
              className="svc-app-input"
              value={String(cfg.reportId ?? "")}
              onChange={(e) => set({ reportId: Number(e.target.value) })}
              data-testid="chart-report"
            >
              {props.reports.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
          <label className="svc-app-field">
            <span>Title</span>
            <input
              className="svc-app-input"
              value={String(cfg.title ?? "")}
              placeholder="The report's title"
              onChange={(e) => set({ title: e.target.value || undefined })}
            />
          </label>
        </>
      ) : null}
      {w.type === "TEXT" ? (
        <label className="svc-app-field">
          <span>Markdown</span>
          <textarea
            className="svc-app-input"
            rows={8}
            value={String(cfg.markdown ?? "")}
            onChange={(e) => set({ markdown: e.target.value })}
            data-testid="text-markdown"
          />
        </label>
      ) : null}
      {w.type === "FILTER" || w.type === "TIME_GRAIN" ? (
        <label className="svc-app-field">
          <span>{w.type === "FILTER" ? "Filter on" : "Time dimension"}</span>
          <select
            className="svc-app-input"
            value={String((w.type === "FILTER" ? cfg.member : cfg.dimension) ?? "")}
            onChange={(e) =>
              set(
                w.type === "FILTER"
                  ? { member: e.target.value, control: members.find((m) => m.name === e.target.value)?.type === "time" ? "dateRange" : "values" }
                  : { dimension: e.target.value },
              )
            }
          >
            <option value="">Choose…</option>
            {members
              .filter((m) => (w.type === "TIME_GRAIN" ? m.type === "time" : true))
              .map((m) => (
                <option key={m.name} value={m.name}>
                  {m.title}
                </option>
              ))}
          </select>
        </label>
      ) : null}
      {w.type === "FILTER" ? (
        <label className="svc-app-field">
          <span>Label</span>
          <input className="svc-app-input" value={String(cfg.label ?? "")} onChange={(e) => set({ label: e.target.value || null })} />
        </label>
      ) : null}
      {w.type === "AI" ? (
        <label className="svc-app-field">
          <span>Suggested question</span>
          <input className="svc-app-input" value={String(cfg.question ?? "")} onChange={(e) => set({ question: e.target.value })} />
        </label>
      ) : null}
      {w.type === "TABS_CONTAINER" ? (
        <label className="svc-app-field">
          <span>Tab titles (comma separated)</span>
          <input
            className="svc-app-input"
            value={((cfg.tabs as { title: string }[] | undefined) ?? []).map((t) => t.title).join(", ")}
            onChange={(e) => {
              const titles = e.target.value.split(",").map((s) => s.trim());
              const old = (cfg.tabs as { id: string; title: string; widgets: DashboardWidget[] }[] | undefined) ?? [];
              set({ tabs: titles.map((title, i) => ({ id: old[i]?.id ?? `tab-${i + 1}`, title: title || `Tab ${i + 1}`, widgets: old[i]?.widgets ?? [] })) });
            }}
          />
        </label>
      ) : null}
      <button type="button" className="svc-button is-danger is-small" onClick={props.onRemove} data-testid="remove-widget">
        Remove widget
      </button>
    </aside>
  );
}

export function PublishedDashboard(props: { workbook: AppWorkbook }) {
  const { switches, go, api, notify, refresh } = useApp();
  const duplicate = async () => {
    try {
      const copy = await api.duplicateWorkbook(props.workbook.id);
      await refresh();
      notify("ok", `Duplicated as ${copy.name}`);
      go({ kind: "workbook", workbookId: copy.id });
    } catch (error) {
      notify("error", `Could not duplicate: ${messageOf(error)}`);
    }
  };
  const published = props.workbook.publishedDashboard;
  const host = useWidgetHost(published?.reportSnapshots ?? []);
  if (!published) {
    return (
      <div className="svc-app-empty" data-testid="published-empty">
        <h3>Not published yet</h3>
        <p>Publish the dashboard to share a fixed version of it.</p>
        {switches.showDashboardEditButton ? (
          <button type="button" className="svc-button is-primary" onClick={() => go({ kind: "dashboard", workbookId: props.workbook.id })}>
            Open the editor
          </button>
        ) : null}
      </div>
    );
  }
  const title = published.config.title ?? published.title ?? props.workbook.name;
  return (
    <WidgetHostContext.Provider value={host}>
      <div className="svc-app-published" data-testid="published-dashboard" data-public-id={published.publicId} data-version={published.versionNumber}>
        {switches.showDashboardHeader ? (
          <header className="svc-app-published-header">
            {switches.showDashboardBackButton ? (
              <button type="button" className="svc-button is-small" onClick={() => go({ kind: "home" })}>
                ← Back
              </button>
            ) : null}
            {switches.showDashboardTitle ? <h2 className="svc-app-published-title">{title}</h2> : null}
            <span className="svc-app-muted">Version {published.versionNumber}</span>
            <span className="svc-app-tabs-spacer" />
            {switches.showDashboardDuplicateButton ? (
              <button type="button" className="svc-button is-small" onClick={() => void duplicate()} data-testid="duplicate-dashboard">
                Duplicate
              </button>
            ) : null}
            {switches.showDashboardEditButton ? (
              <button
                type="button"
                className="svc-button is-small"
                onClick={() => go({ kind: "dashboard", workbookId: props.workbook.id })}
                data-testid="edit-dashboard"
              >
                Edit
              </button>
            ) : null}
          </header>
        ) : null}
        {(published.config.widgets ?? []).length ? (
          <DashboardGrid widgets={published.config.widgets ?? []} layout={published.config.layout} />
        ) : (
          <div className="svc-app-empty">
            <h3>This dashboard is empty</h3>
          </div>
        )}
      </div>
    </WidgetHostContext.Provider>
  );
}
