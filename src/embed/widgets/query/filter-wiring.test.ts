import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import type { DashboardFilter } from "../../../schema/dashboard-filters";
import { composeWidgetQuery } from "./compose-query";
import { filterWiringOf, filtersForWidget, widgetFilterMap } from "./filter-wiring";

const at = { x: 0, y: 0, w: 3, h: 2 };
const chart = (id: string, reportId: number): DashboardWidget => ({ id, type: "CHART", position: at, config: { reportId } });
const filterWidget = (id: string, member: string, targets?: unknown): DashboardWidget => ({
  id,
  type: "FILTER",
  position: at,
  config: { member, control: "values", ...(targets === undefined ? {} : { targets }) },
});

const salesQuery = { measures: ["sales.revenue"], dimensions: ["sales.status"] };
const ordersQuery = { measures: ["orders.count"], dimensions: ["orders.city"] };
const status: DashboardFilter = { member: "sales.status", operator: "equals", value: "paid" };
const state = (filters: Record<string, DashboardFilter>, widgetId: string, widgets: DashboardWidget[]) => ({
  filters,
  timeGrains: {},
  timezone: null,
  filterWiring: filterWiringOf(widgets),
  widgetId,
});

describe("filterWiringOf", () => {
  it("lists explicit targets only, nested tabs included", () => {
    const tabs: DashboardWidget = {
      id: "tabs",
      type: "TABS_CONTAINER",
      position: at,
      config: { tabs: [{ id: "t1", title: "T", widgets: [filterWidget("f2", "orders.city", [{ widgetId: "a", member: "sales.city" }])] }] },
    };
    const wiring = filterWiringOf([filterWidget("f1", "sales.status"), tabs]);
    expect(wiring.has("sales.status")).toBe(false);
    expect([...(wiring.get("orders.city") ?? [])]).toEqual([["a", "sales.city"]]);
  });

  it("keeps a member on the default wiring while one of its controls has no targets", () => {
    const wiring = filterWiringOf([filterWidget("f1", "sales.status", [{ widgetId: "a", member: "sales.status" }]), filterWidget("f2", "sales.status")]);
    expect(wiring.has("sales.status")).toBe(false);
  });

  it("ignores malformed targets (the default wiring)", () => {
    expect(filterWiringOf([filterWidget("f1", "sales.status", [{ widgetId: "a", member: "not a member" }])]).size).toBe(0);
  });
});

describe("which widget gets which filter on which member", () => {
  it("default: every widget whose report uses the filter's view, on the same member", () => {
    const widgets = [filterWidget("f", "sales.status"), chart("a", 1), chart("b", 2)];
    expect(composeWidgetQuery(salesQuery, state({ "sales.status": status }, "a", widgets)).filters).toEqual([
      { member: "sales.status", operator: "equals", values: ["paid"] },
    ]);
    expect(composeWidgetQuery(ordersQuery, state({ "sales.status": status }, "b", widgets)).filters).toBeUndefined();
  });

  it("wired to one of two widgets of the same view: only that one is filtered", () => {
    const widgets = [filterWidget("f", "sales.status", [{ widgetId: "a", member: "sales.status" }]), chart("a", 1), chart("b", 1)];
    expect(composeWidgetQuery(salesQuery, state({ "sales.status": status }, "a", widgets)).filters).toHaveLength(1);
    expect(composeWidgetQuery(salesQuery, state({ "sales.status": status }, "b", widgets)).filters).toBeUndefined();
  });

  it("applies on the member chosen for the widget, also in another view", () => {
    const widgets = [filterWidget("f", "sales.status", [{ widgetId: "b", member: "orders.state" }]), chart("b", 2)];
    expect(composeWidgetQuery(ordersQuery, state({ "sales.status": status }, "b", widgets)).filters).toEqual([
      { member: "orders.state", operator: "equals", values: ["paid"] },
    ]);
  });

  it("an empty target list drives no widget; other filters keep their default", () => {
    const city: DashboardFilter = { member: "sales.city", operator: "equals", value: "Oslo" };
    const widgets = [filterWidget("f", "sales.status", []), filterWidget("g", "sales.city"), chart("a", 1)];
    expect(composeWidgetQuery(salesQuery, state({ "sales.status": status, "sales.city": city }, "a", widgets)).filters).toEqual([
      { member: "sales.city", operator: "equals", values: ["Oslo"] },
    ]);
  });

  it("leaves the picker's own member out, by the filter's member", () => {
    const widgets = [filterWidget("f", "sales.status", [{ widgetId: "a", member: "sales.state" }])];
    expect(composeWidgetQuery(salesQuery, state({ "sales.status": status }, "a", widgets), "sales.status").filters).toBeUndefined();
  });

  it("a Python report receives its filters keyed by the member they apply to", () => {
    const widgets = [filterWidget("f", "sales.status", [{ widgetId: "p", member: "orders.state" }])];
    expect(widgetFilterMap({ "sales.status": status }, filterWiringOf(widgets), "p")).toEqual({
      "orders.state": { member: "orders.state", operator: "equals", value: "paid" },
    });
    expect(widgetFilterMap({ "sales.status": status }, filterWiringOf(widgets), "other")).toEqual({});
  });

  it("without a widget id, the default wiring", () => {
    const wiring = filterWiringOf([filterWidget("f", "sales.status", [])]);
    expect(filtersForWidget({ "sales.status": status }, wiring, undefined)).toEqual([{ source: "sales.status", filter: status, wired: false }]);
  });
});
