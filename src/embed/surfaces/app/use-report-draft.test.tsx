// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Report, ReportInput } from "../../../schema/report";
import { completeQueryOf } from "./report-draft-query";
import { AUTOSAVE_DELAY_MS, draftOf, useReportDraft, type ReportDraft } from "./use-report-draft";

const report: Report = {
  id: 1,
  publicId: "AbCdEfGh1234",
  deploymentId: 1,
  type: "REPORT",
  folderId: null,
  folderPath: [],
  workbookId: 3,
  name: "Orders by weekday",
  title: null,
  description: null,
  kind: "vega",
  query: { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.created_at", part: "dayOfWeek" }] },
  sqlQuery: null,
  spec: { mark: { type: "line" } },
  meta: null,
  fillMissingRows: null,
  periodComparisons: null,
  preferences: null,
  externalWorkbookPlacements: [],
  versionNumber: 1,
  createdBy: null,
  createdAt: "2026-11-27T00:00:00.000Z",
  updatedAt: "2026-11-27T00:00:00.000Z",
  lastViewedAt: null,
  canEdit: true,
  canManage: true,
};

const inputOf = (d: ReportDraft): ReportInput => ({ name: d.name, query: { ...completeQueryOf(d.query) } });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setUp(options: { canEdit?: boolean; save?: (input: ReportInput) => Promise<unknown> } = {}) {
  const save = vi.fn(options.save ?? (async () => undefined));
  const onSaveError = vi.fn<(message: string) => void>();
  const hook = renderHook(() => useReportDraft(report, { canEdit: options.canEdit ?? true, inputOf, save, onSaveError }));
  return { hook, save, onSaveError };
}

describe("draftOf", () => {
  it("reads the view, the chart and the part of time of a saved report", () => {
    expect(draftOf(report)).toEqual({
      name: "Orders by weekday",
      view: "sales",
      query: report.query,
      viz: "line",
      formats: {},
      compare: "none",
      percentOfTotal: false,
      vizAuto: false,
      pivotColumns: null,
    });
  });

  it("reads a saved pivot, its shares and its comparison back onto the time dimension's range", () => {
    const query = {
      measures: ["sales.revenue"],
      dimensions: ["sales.country", "sales.category"],
      compare: { dimension: "sales.created_at", baseline: ["2024-04-01", "2024-06-30"], current: ["2025-04-01", "2025-06-30"] },
      calculations: [{ type: "percentOfTotal" as const, measure: "sales.revenue.current" }],
      order: [["sales.revenue.current", "desc"]] as [string, "desc"][],
    };
    const draft = draftOf({ ...report, kind: "table", spec: { pivot: { columns: "sales.category" } }, query });
    expect(draft).toMatchObject({ viz: "pivot", pivotColumns: "sales.category", percentOfTotal: true, compare: "yearBefore" });
    expect(draft.query).toEqual({
      measures: ["sales.revenue"],
      dimensions: ["sales.country", "sales.category"],
      timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2025-04-01", "2025-06-30"] }],
      order: [["sales.revenue", "desc"]],
    });
    const previous = draftOf({ ...report, query: { ...query, compare: { ...query.compare, baseline: ["2025-01-01", "2025-03-31"] } } });
    expect(previous.compare).toBe("previousPeriod");
  });

  it("reads a trend's period comparison and follows the suggestion for a report with no query yet", () => {
    const trend = draftOf({
      ...report,
      periodComparisons: [{ measure: "sales.count", timeDimension: "sales.created_at", offset: { amount: 1, unit: "month" } }],
    });
    expect(trend.compare).toBe("previousPeriod");
    expect(draftOf({ ...report, query: {} }).vizAuto).toBe(true);
  });
});

describe("useReportDraft", () => {
  it("saves the draft once, a moment after the last edit", async () => {
    const { hook, save } = setUp();
    act(() => hook.result.current.toggle("dimensions", "sales.status"));
    act(() => hook.result.current.edit({ name: "By weekday and status" }));
    expect(hook.result.current.save.status).toBe("saving");
    await act(async () => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 1));
    expect(save).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenLastCalledWith({ name: "By weekday and status", query: { ...report.query, dimensions: ["sales.status"] } });
    expect(hook.result.current.save.status).toBe("saved");
  });

  it("keeps the draft and says why when a save fails", async () => {
    const { hook, onSaveError } = setUp({
      save: async () => {
        throw new Error("conflict");
      },
    });
    act(() => hook.result.current.editQuery((q) => ({ ...q, limit: 10 })));
    await act(async () => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS));
    expect(hook.result.current.save).toEqual({ status: "error", message: "conflict" });
    expect(onSaveError).toHaveBeenCalledWith("conflict");
    expect(hook.result.current.draft.query.limit).toBe(10);
  });

  it("saves nothing before an edit, nor for a viewer who may not edit", async () => {
    const untouched = setUp();
    await act(async () => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2));
    expect(untouched.save).not.toHaveBeenCalled();
    const viewer = setUp({ canEdit: false });
    act(() => viewer.hook.result.current.toggle("measures", "sales.count"));
    await act(async () => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2));
    expect(viewer.save).not.toHaveBeenCalled();
    expect(viewer.hook.result.current.draft.query.measures).toEqual([]);
  });

  it("saves nothing for a half-made filter, and the complete query once it is finished", async () => {
    const { hook, save } = setUp();
    act(() => hook.result.current.editQuery((q) => ({ ...q, filters: [{ member: "sales.id", operator: "equals", values: [] }] })));
    await act(async () => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2));
    expect(save).not.toHaveBeenCalled();
    expect(hook.result.current.save.status).toBe("saved");
    expect(hook.result.current.draft.query.filters).toHaveLength(1);
    act(() => hook.result.current.editQuery((q) => ({ ...q, filters: [{ member: "sales.id", operator: "equals", values: ["7"] }] })));
    await act(async () => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenLastCalledWith({
      name: report.name,
      query: { ...report.query, filters: [{ member: "sales.id", operator: "equals", values: ["7"] }] },
    });
  });

  it("saves again after a failed save even when the next edit leaves the complete query as it was", async () => {
    let fail = true;
    const { hook, save } = setUp({
      save: async () => {
        if (fail) throw new Error("offline");
      },
    });
    act(() => hook.result.current.editQuery((q) => ({ ...q, limit: 10 })));
    await act(async () => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS));
    fail = false;
    act(() => hook.result.current.editQuery((q) => ({ ...q, filters: [{ member: "sales.id", operator: "equals", values: [] }] })));
    await act(async () => vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS));
    expect(save).toHaveBeenCalledTimes(2);
    expect(hook.result.current.save.status).toBe("saved");
  });
});
