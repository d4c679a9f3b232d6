/**
 * The workbook's dashboard: the draft on react-grid-layout (drag, resize, per-breakpoint
 * layouts), every widget type addable and configurable, undo/redo, an autosaved draft, preview
 * and publish; and the published view (published-dashboard.tsx).
 */
import { useEffect, useMemo, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { DashboardWidget, DashboardWidgetType } from "../../../schema/dashboard";
import type { Report } from "../../../schema/report";
import { DrilldownPanel } from "../../grid/drilldown-panel";
import { WidgetHostContext, type DrilldownRequest } from "../../grid/widget-host";
import { useApp } from "./app-context";
import type { AppWorkbook } from "./app-api";
import { GridIcon } from "./app-icons";
import { useAppText } from "./app-messages";
import { DashboardToolbar } from "./dashboard-toolbar";
import { EditableGrid } from "./dashboard-editable-grid";
import { WidgetInspector } from "./dashboard-widget-inspector";
import { moveIntoTab, moveOutOfTab, withoutWidget, tabPlacesOf } from "./dashboard-tab-placement";
import { newWidget, newWidgetId, snapshotOfReport, useWidgetHost } from "./dashboard-widgets";
import { useDashboardDraft } from "./use-dashboard-draft";
import { WiringBar, WiringOverlay } from "./dashboard-wiring";
import { tabChartsOf } from "./filter-wiring-rows";
import { useFilterWiringEditor } from "./use-filter-wiring-editor";
import { useModelDimensions } from "./use-model-dimensions";
import { resolveGridConfig } from "../../grid/grid-layouts";
import { CanvasSizeBar, canvasFrame } from "./dashboard-canvas-size";
import type { PreviewSize } from "./dashboard-breakpoints";
import { appKeys } from "./app-queries";

export { PublishedDashboard } from "./published-dashboard";

export function DashboardEditor(props: { workbook: AppWorkbook; reports: Report[]; canEdit: boolean }) {
  const { switches, api } = useApp();
  const queryClient = useQueryClient();
  // The workbook's reports may have changed in the report builder since they were listed: read
  // them again, so a chart widget shows the report as it is saved now.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: appKeys.reports(api.deploymentId, props.workbook.id) });
  }, [queryClient, api.deploymentId, props.workbook.id]);
  const t = useAppText();
  const reportIds = useMemo(() => props.reports.map((r) => r.id), [props.reports]);
  const draft = useDashboardDraft(props.workbook, props.canEdit, reportIds);
  const { config, change } = draft;
  const widgets = useMemo(() => config.widgets ?? [], [config.widgets]);
  const [selected, setSelected] = useState<string | null>(null);
  const [preview, setPreview] = useState(false);
  // The responsive preview: the canvas at a breakpoint's width, editable where it has its own layout.
  const [size, setSize] = useState<PreviewSize>("auto");
  const grid = useMemo(() => resolveGridConfig(config.layout), [config.layout]);
  const frame = canvasFrame(size, grid, config);
  const snapshots = useMemo(() => props.reports.map(snapshotOfReport), [props.reports]);
  // In the preview a value drills through as on the published dashboard; while editing a click selects.
  const [drill, setDrill] = useState<DrilldownRequest | null>(null);
  const host = useWidgetHost(snapshots, preview, preview ? setDrill : undefined);

  const add = (type: DashboardWidgetType) => {
    const id = newWidgetId(type, widgets);
    change((c) => ({ ...c, widgets: [...(c.widgets ?? []), newWidget(type, c.widgets ?? [], props.reports, id)] }));
    setSelected(id);
  };
  // One widget's settings changed in a row are one undo step, and so is typing into one of its fields.
  const updateWidget = (id: string, fn: (w: DashboardWidget) => DashboardWidget, options?: { typing?: boolean }) =>
    change((c) => ({ ...c, widgets: (c.widgets ?? []).map((w) => (w.id === id ? fn(w) : w)) }), { group: `widget:${id}`, ...options });
  const removeWidget = (id: string) => {
    change((c) => ({ ...c, widgets: withoutWidget(c.widgets ?? [], id) }));
    setSelected(null);
  };

  const selectedWidget = widgets.find((w) => w.id === selected) ?? null;
  const editing = props.canEdit && !preview;
  // Wiring mode: the FILTER widget whose targets the canvas shows and edits.
  const [wiringId, setWiringId] = useState<string | null>(null);
  const wiringWidget = editing ? (widgets.find((w) => w.id === wiringId && w.type === "FILTER") ?? null) : null;
  const dimensions = useModelDimensions();
  const wiring = useFilterWiringEditor(wiringWidget, widgets, props.reports, dimensions, updateWidget);

  return (
    <WidgetHostContext.Provider value={host}>
      {/* The focus leaving a field ends its typing's undo step. */}
      <div className="svc-app-editor" data-testid="dashboard-editor" onBlur={draft.seal}>
        <DashboardToolbar
          canEdit={props.canEdit}
          editing={editing}
          canUndo={draft.canUndo}
          canRedo={draft.canRedo}
          save={draft.save}
          preview={preview}
          publishing={draft.publishing}
          onAdd={add}
          onUndo={draft.undo}
          onRedo={draft.redo}
          onPreview={() => setPreview((p) => !p)}
          onPublish={() => void draft.publish()}
        />
        {switches.showDashboardSettings && editing ? (
          <div className="svc-app-inline svc-app-dash-settings">
            <label className="svc-app-field is-inline">
              <span>{t("dashTitle")}</span>
              <input
                className="svc-app-input"
                value={config.title ?? ""}
                onChange={(e) => change((c) => ({ ...c, title: e.target.value }), { group: "title", typing: true })}
                data-testid="dashboard-title"
              />
            </label>
          </div>
        ) : null}
        <div className="svc-app-editor-body">
          <div className={`svc-app-canvas${wiringWidget ? " is-wiring" : ""}${frame.width ? " is-framed" : ""}`}>
            {wiringWidget ? (
              <WiringBar
                editor={wiring}
                onDone={() => setWiringId(null)}
                inTabs={tabChartsOf(widgets, (id) => props.reports.find((r) => r.id === id)?.name ?? null)}
                dimensions={dimensions}
              />
            ) : null}
            {widgets.length ? (
              <CanvasSizeBar
                size={size}
                onSize={setSize}
                grid={grid}
                widgets={widgets}
                editing={editing && !wiringWidget}
                onWidgets={(fn) => change((c) => ({ ...c, widgets: fn(c.widgets ?? []) }))}
              />
            ) : null}
            {widgets.length === 0 ? (
              <div className="svc-app-empty" data-testid="dashboard-empty">
                <div className="svc-app-empty-icon" aria-hidden="true">
                  <GridIcon size={28} />
                </div>
                <h3>{t("dashEmpty")}</h3>
                <p>{t(props.reports.length ? "dashEmptyHint" : "dashEmptyNoReports")}</p>
              </div>
            ) : (
              <EditableGrid
                widgets={widgets}
                layout={config.layout}
                editing={editing && !wiringWidget && frame.editable}
                frameWidth={frame.width}
                selected={selected}
                onSelect={setSelected}
                onLayout={(next) => change((c) => ({ ...c, widgets: next }))}
                overlay={wiring ? (w) => <WiringOverlay widget={w} editor={wiring} dimensions={dimensions} /> : undefined}
              />
            )}
          </div>
          {editing && selectedWidget && !wiringWidget ? (
            <WidgetInspector
              widget={selectedWidget}
              reports={props.reports}
              workbookId={props.workbook.id}
              onWire={() => setWiringId(selectedWidget.id)}
              onChange={(fn, options) => updateWidget(selectedWidget.id, fn, options)}
              onRemove={() => removeWidget(selectedWidget.id)}
              places={tabPlacesOf(widgets, t("widgetTabs"))}
              onPlace={(place) => {
                change((c) => ({ ...c, widgets: moveIntoTab(c.widgets ?? [], selectedWidget.id, place) }));
                setSelected(place.containerId);
              }}
              onMoveOut={(widgetId) => change((c) => ({ ...c, widgets: moveOutOfTab(c.widgets ?? [], selectedWidget.id, widgetId) }))}
              onClose={() => setSelected(null)}
            />
          ) : null}
        </div>
      </div>
      {drill && preview ? <DrilldownPanel request={drill} onClose={() => setDrill(null)} /> : null}
    </WidgetHostContext.Provider>
  );
}
