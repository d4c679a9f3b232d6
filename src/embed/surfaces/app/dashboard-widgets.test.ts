import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { REPORT } from "./dashboard-editor-fixtures";
import { WIDGET_TYPES, newWidget, snapshotOfReport } from "./dashboard-widgets";

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

describe("snapshotOfReport", () => {
  it("carries the report's query in its meta and its name as title", () => {
    expect(snapshotOfReport(REPORT)).toMatchObject({ reportId: 5, title: "Orders", meta: { query: { measures: ["orders.count"] } } });
  });
});
