import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { allWidgets, tabsOf } from "../../widgets/tabs-container/tabs-config";
import { closeGaps, moveIntoTab, moveOutOfTab, tabPlacesOf, withoutWidget } from "./dashboard-tab-placement";

const chart: DashboardWidget = { id: "c1", type: "CHART", position: { x: 6, y: 4, w: 6, h: 5 }, config: { reportId: 7, click: { kind: "drill" } } };
const kpi: DashboardWidget = { id: "k1", type: "CHART", position: { x: 0, y: 0, w: 3, h: 2 }, config: { reportId: 8 } };
const tabs: DashboardWidget = {
  id: "tabs",
  type: "TABS_CONTAINER",
  position: { x: 0, y: 9, w: 12, h: 6 },
  config: {
    title: "Details",
    tabs: [
      { id: "a", title: "Cities", widgets: [{ ...kpi, id: "k0", position: { x: 0, y: 0, w: 6, h: 3 } }] },
      { id: "b", title: "Products", widgets: [] },
    ],
  },
};

describe("putting a widget into a tab and taking it out", () => {
  it("offers every tab of the dashboard's containers by name", () => {
    expect(tabPlacesOf([chart, tabs], "Tabs")).toEqual([
      { containerId: "tabs", tabId: "a", label: "Details › Cities" },
      { containerId: "tabs", tabId: "b", label: "Details › Products" },
    ]);
    expect(tabPlacesOf([chart, { ...tabs, config: { tabs: [{ id: "x", title: "One", widgets: [] }] } }], "Tabs")[0]!.label).toBe("Tabs › One");
    expect(tabPlacesOf([chart], "Tabs")).toEqual([]);
  });

  it("moves the widget with its settings below what the tab holds, and off the dashboard's grid", () => {
    const next = moveIntoTab([chart, tabs], "c1", { containerId: "tabs", tabId: "a" });
    expect(next.map((w) => w.id)).toEqual(["tabs"]);
    // The container moves up into the place the chart left.
    expect(next[0]!.position).toEqual({ x: 0, y: 0, w: 12, h: 6 });
    const inTab = tabsOf(next[0]!)[0]!.widgets;
    expect(inTab.map((w) => w.id)).toEqual(["k0", "c1"]);
    expect(inTab[1]!.position).toEqual({ x: 0, y: 3, w: 6, h: 5 });
    expect(inTab[1]!.config).toEqual(chart.config);
    // The container keeps its own settings and its other tab.
    expect((next[0]!.config as { title: string }).title).toBe("Details");
    expect(tabsOf(next[0]!)[1]!.widgets).toEqual([]);
    // Every widget is still on the dashboard once (what filters and exports walk).
    expect(
      allWidgets(next)
        .map((w) => w.id)
        .sort(),
    ).toEqual(["c1", "k0", "tabs"]);
  });

  it("takes a widget out onto the dashboard below everything, and back in again", () => {
    const inside = moveIntoTab([chart, tabs], "c1", { containerId: "tabs", tabId: "b" });
    const out = moveOutOfTab(inside, "tabs", "c1");
    expect(out.map((w) => w.id)).toEqual(["tabs", "c1"]);
    expect(out[1]!.position).toEqual({ x: 0, y: 6, w: 6, h: 5 });
    expect(tabsOf(out[0]!)[1]!.widgets).toEqual([]);
    expect(allWidgets(out)).toHaveLength(3);
  });

  it("changes nothing for a container, a missing widget or a missing tab", () => {
    const widgets = [chart, tabs];
    expect(moveIntoTab(widgets, "tabs", { containerId: "tabs", tabId: "a" })).toEqual(widgets);
    expect(moveIntoTab(widgets, "nope", { containerId: "tabs", tabId: "a" })).toEqual(widgets);
    expect(moveIntoTab(widgets, "c1", { containerId: "tabs", tabId: "zz" })).toEqual(widgets);
    expect(moveOutOfTab(widgets, "tabs", "c1")).toEqual(widgets);
  });
});

describe("closing the gap a widget leaves", () => {
  const text: DashboardWidget = { id: "t1", type: "TEXT", position: { x: 0, y: 2, w: 6, h: 2 }, config: {} };
  const below: DashboardWidget = { id: "b1", type: "CHART", position: { x: 0, y: 9, w: 12, h: 4 }, config: { reportId: 9 } };

  it("moves the widgets below a removed one up, never sideways, never over another", () => {
    const next = withoutWidget([kpi, text, chart, below], "c1");
    expect(next.map((w) => [w.id, w.position])).toEqual([
      ["k1", { x: 0, y: 0, w: 3, h: 2 }],
      ["t1", { x: 0, y: 2, w: 6, h: 2 }],
      // Under the text (columns 0–5), no longer under the chart.
      ["b1", { x: 0, y: 4, w: 12, h: 4 }],
    ]);
  });

  it("closes the gap in a breakpoint's own layouts too, leaving the derived ones to the desktop layout", () => {
    const md = (y: number) => ({ md: { x: 0, y, w: 10, h: 2 } });
    const a: DashboardWidget = { ...kpi, id: "a", responsiveLayouts: md(0) };
    const gone: DashboardWidget = { ...text, id: "gone", responsiveLayouts: md(2) };
    const c: DashboardWidget = { ...below, id: "c", responsiveLayouts: { ...md(4), sm: null } };
    const next = withoutWidget([a, gone, c], "gone");
    expect(next[1]!.responsiveLayouts).toEqual({ md: { x: 0, y: 2, w: 10, h: 2 }, sm: null });
    expect(next[1]!.position.y).toBe(2);
    expect(next[0]).toBe(a);
  });

  it("keeps a widget that has no room above where it is, and the same objects when nothing moves", () => {
    const packed = [kpi, text];
    expect(closeGaps(packed)).toEqual(packed);
    expect(closeGaps(packed)[0]).toBe(kpi);
    // Side by side at the top: each stays in its columns.
    const side: DashboardWidget = { ...chart, position: { x: 6, y: 3, w: 6, h: 5 } };
    expect(closeGaps([kpi, side]).map((w) => w.position)).toEqual([kpi.position, { x: 6, y: 0, w: 6, h: 5 }]);
  });
});
