// @vitest-environment jsdom
import { useState } from "react";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { REPORT, renderEditorPart } from "./dashboard-editor-fixtures";
import { WidgetInspector } from "./dashboard-widget-inspector";
import { WiringBar, WiringOverlay } from "./dashboard-wiring";
import { tabChartsOf } from "./filter-wiring-rows";
import { useFilterWiringEditor } from "./use-filter-wiring-editor";
import { useModelDimensions } from "./use-model-dimensions";

afterEach(cleanup);

const at = { x: 0, y: 0, w: 6, h: 4 };
const chart: DashboardWidget = { id: "c1", type: "CHART", position: at, config: { reportId: REPORT.id } };
const orphan: DashboardWidget = { id: "c2", type: "CHART", position: at, config: { reportId: 999 } };
const filter: DashboardWidget = { id: "f", type: "FILTER", position: at, config: { member: "orders.status", control: "values", label: "Status" } };

const tabs: DashboardWidget = {
  id: "t",
  type: "TABS_CONTAINER",
  position: at,
  config: { tabs: [{ id: "a", title: "Detail", widgets: [{ id: "c3", type: "CHART", position: at, config: { reportId: REPORT.id } }] }] },
};

/** The wiring mode of the filter over two charts (and a third in a tab), its edits applied to its own widgets. */
function Wiring(props: { onWidgets?: (w: DashboardWidget[]) => void; withTabs?: boolean }) {
  const [widgets, setWidgets] = useState(props.withTabs ? [filter, chart, orphan, tabs] : [filter, chart, orphan]);
  const dimensions = useModelDimensions();
  const update = (id: string, fn: (w: DashboardWidget) => DashboardWidget) =>
    setWidgets((ws) => {
      const next = ws.map((w) => (w.id === id ? fn(w) : w));
      props.onWidgets?.(next);
      return next;
    });
  const editor = useFilterWiringEditor(widgets[0]!, widgets, [REPORT], dimensions, update);
  return (
    <>
      <WiringBar editor={editor} onDone={() => {}} inTabs={tabChartsOf(widgets, () => REPORT.name)} dimensions={dimensions} />
      {editor ? widgets.map((w) => <WiringOverlay key={w.id} widget={w} editor={editor} dimensions={dimensions} />) : null}
    </>
  );
}

describe("the wiring mode", () => {
  it("lists a chart inside a tab under the bar with its own switch, which writes the targets", async () => {
    const seen = vi.fn();
    renderEditorPart(<Wiring onWidgets={seen} withTabs />);
    const inTabs = screen.getByTestId("wiring-in-tabs");
    expect(inTabs.textContent).toContain(`Detail › ${REPORT.name}`);
    expect(screen.getByTestId("wire-c3").getAttribute("data-connected")).toBe("true");
    expect(screen.getByTestId("wiring-count").textContent).toContain("2 of 3 charts connected");
    fireEvent.click(screen.getByTestId("wire-c3-switch"));
    expect(seen.mock.lastCall![0][0].config.targets).toEqual([{ widgetId: "c1", member: "orders.status" }]);
    expect(screen.getByTestId("wire-c3").getAttribute("data-connected")).toBe("false");
    expect(screen.getByTestId("wire-c3-reason").textContent).toBe("Not connected Switched off for this widget.");
  });

  it("shows which charts the filter drives and why the others are not connected; a switch writes the targets", async () => {
    const seen = vi.fn();
    renderEditorPart(<Wiring onWidgets={seen} />);
    expect(screen.getByTestId("wiring-count").textContent).toContain("1 of 2 charts connected · Default wiring");
    expect(screen.getByTestId("wire-c1").getAttribute("data-connected")).toBe("true");
    await screen.findByRole("option", { name: "Orders: Order ID" });
    expect((screen.getByTestId("wire-c1-member") as HTMLSelectElement).value).toBe("orders.status");
    expect(screen.getByTestId("wire-c2-reason").textContent).toBe("Not connected This widget shows no report.");
    expect((screen.getByTestId("wire-c2-switch") as HTMLInputElement).disabled).toBe(true);
    // The filter itself is not covered.
    expect(screen.queryByTestId("wire-f")).toBeNull();

    fireEvent.change(screen.getByTestId("wire-c1-member"), { target: { value: "orders.id" } });
    expect(seen.mock.lastCall![0][0].config.targets).toEqual([{ widgetId: "c1", member: "orders.id" }]);
    expect(screen.getByTestId("wiring-count").textContent).toContain("Custom wiring");

    fireEvent.click(screen.getByTestId("wire-c1-switch"));
    expect(seen.mock.lastCall![0][0].config.targets).toEqual([]);
    expect(screen.getByTestId("wire-c1-reason").textContent).toBe("Not connected Switched off for this widget.");

    fireEvent.click(screen.getByTestId("wiring-reset"));
    expect(seen.mock.lastCall![0][0].config).toEqual({ member: "orders.status", control: "values", label: "Status" });
  });

  it("speaks German (de-DE)", () => {
    renderEditorPart(<Wiring />, { locale: "de-DE" });
    expect(screen.getByTestId("wiring-bar").textContent).toContain("„Status“ mit Widgets verbinden");
    expect(screen.getByTestId("wiring-done").textContent).toBe("Fertig");
  });
});

describe("a chart's click behaviour", () => {
  it("saves a host event once its name is valid, and says what is wrong before", () => {
    const onChange = vi.fn();
    renderEditorPart(<WidgetInspector widget={chart} reports={[REPORT]} onChange={onChange} onRemove={() => {}} onClose={() => {}} />);
    expect((screen.getByTestId("click-drill") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId("click-event"));
    // No name yet: nothing saved, the choice stays on screen.
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId("click-event-name"), { target: { value: "open order" } });
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText("Letters, digits, “.”, “_” or “-”, at most 64.")).toBeTruthy();
    fireEvent.change(screen.getByTestId("click-event-name"), { target: { value: "open-order" } });
    const fn = onChange.mock.lastCall![0] as (w: DashboardWidget) => DashboardWidget;
    expect(fn(chart).config).toEqual({ reportId: REPORT.id, click: { action: "event", name: "open-order" } });
  });

  it("goes back to the drilldown by removing the setting, in Spanish (es-ES)", () => {
    const onChange = vi.fn();
    const clicking = { ...chart, config: { reportId: REPORT.id, click: { action: "event", name: "x" } } };
    renderEditorPart(<WidgetInspector widget={clicking} reports={[REPORT]} onChange={onChange} onRemove={() => {}} onClose={() => {}} />, { locale: "es-ES" });
    expect(screen.getByText("Al hacer clic")).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: "Ver las filas detrás del valor" }));
    const fn = onChange.mock.lastCall![0] as (w: DashboardWidget) => DashboardWidget;
    expect(fn(clicking).config).toEqual({ reportId: REPORT.id, click: undefined });
  });
});
