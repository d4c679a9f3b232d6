import { describe, expect, it } from "vitest";
import { initialWidgetQueryState, widgetQueryReducer, type WidgetQueryState } from "./query-state";

const run = (events: Parameters<typeof widgetQueryReducer<string>>[1][]): WidgetQueryState<string> =>
  events.reduce((s, e) => widgetQueryReducer<string>(s, e), initialWidgetQueryState<string>());

describe("widgetQueryReducer", () => {
  it("goes from loading to ready with the data", () => {
    const s = run([
      { type: "start", requestId: 1 },
      { type: "success", requestId: 1, data: "rows" },
    ]);
    expect(s).toMatchObject({ status: "ready", data: "rows", refreshing: false });
  });

  it("ignores the result of a superseded request", () => {
    const s = run([
      { type: "start", requestId: 1 },
      { type: "start", requestId: 2 },
      { type: "success", requestId: 1, data: "old" },
    ]);
    expect(s.status).toBe("loading");
    expect(s.data).toBeNull();
  });

  it("keeps the shown data while a newer request runs", () => {
    const s = run([
      { type: "start", requestId: 1 },
      { type: "success", requestId: 1, data: "a" },
      { type: "start", requestId: 2 },
    ]);
    expect(s).toMatchObject({ status: "ready", data: "a", refreshing: true, requestId: 2 });
  });

  it("shows an error and recovers on retry", () => {
    const failed = run([
      { type: "start", requestId: 1 },
      { type: "failure", requestId: 1, error: { name: "QueryFailed", message: "boom" } },
    ]);
    expect(failed).toMatchObject({ status: "error", error: { name: "QueryFailed" } });
    const retried = widgetQueryReducer(failed, { type: "start", requestId: 2 });
    expect(retried.status).toBe("loading");
    expect(widgetQueryReducer(retried, { type: "success", requestId: 2, data: "ok" }).status).toBe("ready");
  });
});
