import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { REPORT } from "./dashboard-editor-fixtures";
import { WIDGET_TYPES, newWidget, newWidgetId, snapshotOfReport } from "./dashboard-widgets";

describe("newWidget", () => {
  const existing: DashboardWidget[] = [
    { id: "a", type: "TEXT", position: { x: 0, y: 0, w: 6, h: 2 }, config: {} },
    { id: "b", type: "CHART", position: { x: 6, y: 1, w: 6, h: 5 }, config: {} },
  ];
  it("goes below every widget, at its type's size", () => {
    expect(newWidget("FILTER", existing, [], "f").position).toEqual({ x: 0, y: 6, w: 3, h: 2 });
    expect(newWidget("TABS_CONTAINER", [], [], "t").position).toEqual({ x: 0, y: 0, w: 12, h: 6 });
  });
  it("starts a chart on the workbook's first report, and tabs with one tab", () => {
    expect(newWidget("CHART", [], [REPORT], "c").config).toEqual({ reportId: 5 });
    expect(newWidget("CHART", [], [], "c").config).toEqual({ reportId: null });
    expect(newWidget("TABS_CONTAINER", [], [], "t").config).toEqual({ tabs: [{ id: "tab-1", title: "Tab 1", widgets: [] }] });
  });
  it("knows every type", () => {
    expect(WIDGET_TYPES).toEqual(["CHART", "TEXT", "FILTER", "TIME_GRAIN", "TABS_CONTAINER", "AI"]);
  });
});

describe("newWidgetId", () => {
  it("gives two widgets added in the same millisecond ids of their own, never one a widget or a tab's widget has", () => {
    const at = Date.UTC(2026, 10, 29);
    const first = newWidgetId("CHART", existing(), at);
    const second = newWidgetId("CHART", existing(), at);
    expect(first).toMatch(/^chart-/);
    expect(second).not.toBe(first);
    const container: DashboardWidget = {
      id: "tabs",
      type: "TABS_CONTAINER",
      position: { x: 0, y: 0, w: 12, h: 6 },
      config: { tabs: [{ id: "tab-1", title: "Tab 1", widgets: [{ id: first, type: "CHART", position: { x: 0, y: 0, w: 6, h: 4 }, config: {} }] }] },
    };
    const ids = Array.from({ length: 50 }, () => newWidgetId("CHART", [container], at));
    expect(new Set(ids).size).toBe(50);
    expect(ids).not.toContain(first);
  });
});

const existing = (): DashboardWidget[] => [{ id: "a", type: "TEXT", position: { x: 0, y: 0, w: 6, h: 2 }, config: {} }];

describe("snapshotOfReport", () => {
  it("carries the report's query in its meta and its name as title", () => {
    expect(snapshotOfReport(REPORT)).toMatchObject({ reportId: 5, title: "Orders", meta: { query: { measures: ["orders.count"] } } });
  });
});
