import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { chartsOf, defaultMemberFor, retarget, wiringRows, withTargets } from "./filter-wiring-rows";

const dims: Record<string, string[]> = { sales: ["sales.status", "sales.city"], orders: ["orders.state"] };
const charts = [
  { widgetId: "a", query: { measures: ["sales.revenue"] } },
  { widgetId: "b", query: { measures: ["orders.count"] } },
  { widgetId: "c", query: null },
];
const rows = (targets: { widgetId: string; member: string }[] | null) => wiringRows("sales.status", targets, charts, (v) => dims[v] ?? []);

describe("the wiring mode's rows", () => {
  it("default: the same member where the report's view has it; others say why not", () => {
    expect(rows(null)).toEqual([
      { widgetId: "a", connected: true, member: "sales.status", options: ["sales.status", "sales.city"], reason: null },
      { widgetId: "b", connected: false, member: null, options: ["orders.state"], reason: "noMember" },
      { widgetId: "c", connected: false, member: null, options: [], reason: "noReport" },
    ]);
  });

  it("explicit targets: listed widgets on their member, the others turned off", () => {
    const r = rows([{ widgetId: "b", member: "orders.state" }]);
    expect(r.map((x) => [x.widgetId, x.connected, x.member, x.reason])).toEqual([
      ["a", false, null, "off"],
      ["b", true, "orders.state", null],
      ["c", false, null, "noReport"],
    ]);
  });

  it("connecting and disconnecting a widget writes every connected widget out", () => {
    const r = rows(null);
    expect(retarget(r, "b", defaultMemberFor(r[1]!, "sales.status"))).toEqual([
      { widgetId: "a", member: "sales.status" },
      { widgetId: "b", member: "orders.state" },
    ]);
    expect(retarget(r, "a", null)).toEqual([]);
    expect(retarget(r, "a", "sales.city")).toEqual([{ widgetId: "a", member: "sales.city" }]);
  });

  it("finds the charts' queries and writes or removes the targets", () => {
    const at = { x: 0, y: 0, w: 1, h: 1 };
    const widgets: DashboardWidget[] = [
      { id: "a", type: "CHART", position: at, config: { reportId: 7 } },
      { id: "t", type: "TEXT", position: at, config: { markdown: "x" } },
    ];
    const tabs: DashboardWidget = {
      id: "tabs",
      type: "TABS_CONTAINER",
      position: at,
      config: { tabs: [{ id: "t1", title: "T", widgets: [{ id: "b", type: "CHART", position: at, config: { reportId: 8 } }] }] },
    };
    expect(chartsOf([...widgets, tabs], (id) => (id === 7 ? { measures: ["sales.revenue"] } : null))).toEqual([
      { widgetId: "a", query: { measures: ["sales.revenue"] } },
      { widgetId: "b", query: null },
    ]);
    const filter: DashboardWidget = { id: "f", type: "FILTER", position: at, config: { member: "sales.status" } };
    const wired = withTargets(filter, [{ widgetId: "a", member: "sales.status" }]);
    expect(wired.config).toEqual({ member: "sales.status", targets: [{ widgetId: "a", member: "sales.status" }] });
    expect(withTargets(wired, null).config).toEqual({ member: "sales.status" });
  });
});
