import { describe, expect, it } from "vitest";
import type { DashboardConfig, DashboardWidget } from "../../../schema/dashboard";
import { chartReportIds, draftRefusal } from "./dashboard-draft-check";

const chart = (id: string, reportId: number): DashboardWidget => ({ id, type: "CHART", position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId } });
const reports = (known: number[], accepted: DashboardConfig | null = null) => ({ known: new Set(known), gone: new Set<number>(), accepted });
const config = (widgets: DashboardWidget[]): DashboardConfig => ({ title: "Sales", widgets });

describe("draftRefusal", () => {
  it("takes a draft whose charts show the workbook's reports", () => {
    expect(draftRefusal(config([chart("a", 1)]), reports([1]))).toBeNull();
  });

  it("refuses a chart of a report the editor does not know, unless a draft the server took showed it", () => {
    const draft = config([chart("a", 1), chart("b", 7)]);
    expect(draftRefusal(draft, reports([1]))).toEqual({ kind: "missingReport", reportId: 7 });
    expect(draftRefusal(draft, reports([1], config([chart("b", 7)])))).toBeNull();
  });

  it("refuses a chart of a report deleted while the editor was open, even one a saved draft showed", () => {
    const draft = config([chart("a", 1)]);
    expect(draftRefusal(draft, { known: new Set([2]), gone: new Set([1]), accepted: draft })).toEqual({ kind: "missingReport", reportId: 1 });
  });

  it("looks inside tabs", () => {
    const tabs: DashboardWidget = {
      id: "t",
      type: "TABS_CONTAINER",
      position: { x: 0, y: 0, w: 12, h: 6 },
      config: { tabs: [{ title: "One", widgets: [chart("c", 9)] }] },
    };
    expect(chartReportIds([tabs, chart("a", 1)])).toEqual([9, 1]);
    expect(draftRefusal(config([tabs]), reports([1]))).toEqual({ kind: "missingReport", reportId: 9 });
  });

  it("refuses what the schema the server validates with refuses, naming where", () => {
    const bad = config([{ ...chart("a", 1), position: { x: 0.5, y: 0, w: 6, h: 4 } }]);
    expect(draftRefusal(bad, reports([1]))).toEqual({ kind: "invalid", path: "widgets.0.position.x" });
  });
});
