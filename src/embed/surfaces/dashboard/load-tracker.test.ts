import { describe, expect, it } from "vitest";
import type { DashboardWidget } from "../../../schema/dashboard";
import { createLoadTracker, visibleWidgetIds } from "./load-tracker";

const w = (id: string, x: number, y: number, width: number, h: number, extra: Partial<DashboardWidget> = {}): DashboardWidget => ({ id, type: "CHART", position: { x, y, w: width, h }, ...extra });

describe("load tracker", () => {
  it("counts top-level widgets and the first tab's widgets as visible", () => {
    const tabs: DashboardWidget = { id: "t", type: "TABS_CONTAINER", position: { x: 0, y: 0, w: 12, h: 6 }, config: { tabs: [{ id: "one", title: "One", widgets: [w("x", 0, 0, 6, 3)] }, { id: "two", title: "Two", widgets: [w("y", 0, 0, 6, 3)] }] } };
    expect(visibleWidgetIds([w("a", 0, 0, 6, 3), tabs])).toEqual(["a", "x"]);
  });

  it("fires once when every visible widget rendered or failed", () => {
    const calls: unknown[] = [];
    const tracker = createLoadTracker(["a", "b"], (s) => calls.push(s));
    tracker.settle("a", "ready");
    tracker.settle("a", "error");
    expect(calls).toEqual([]);
    tracker.settle("b", "error");
    tracker.settle("b", "ready");
    expect(calls).toEqual([{ widgetCount: 2, failed: 1 }]);
  });

  it("fires for a dashboard without widgets", async () => {
    const calls: unknown[] = [];
    createLoadTracker([], (s) => calls.push(s));
    await Promise.resolve();
    expect(calls).toEqual([{ widgetCount: 0, failed: 0 }]);
  });
});
