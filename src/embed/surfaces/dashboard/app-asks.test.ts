import { describe, expect, it } from "vitest";
import type { SurfaceMessage } from "../../../protocol";
import type { ReportSnapshot } from "../../../schema/dashboard";
import type { QueryRequest, QueryResult } from "../../shell/platform-api";
import { createEmbedStore } from "../../state/embed-store";
import { createAppAsks } from "./app-asks";

const report = (reportId: number, name: string): ReportSnapshot => ({
  id: reportId * 10,
  reportId,
  versionNumber: 1,
  name,
  meta: { query: { measures: ["sales.revenue"], dimensions: ["sales.status"] } },
});
const result = (rows: Record<string, unknown>[]): QueryResult => ({
  data: rows,
  annotation: { measures: {}, dimensions: {}, timeDimensions: {} },
  fromCache: false,
});

/** The asks over a dashboard of two reports; every query the host runs is recorded and answered by `answer`. */
function setup(answer: (request: QueryRequest, signal?: AbortSignal) => Promise<QueryResult> = async () => result([{ "sales.revenue": 5 }])) {
  const sent: SurfaceMessage[] = [];
  const errors: string[] = [];
  const queries: QueryRequest[] = [];
  let port = false;
  const store = createEmbedStore();
  const asks = createAppAsks({
    host: {
      reportsById: new Map([
        [1, report(1, "revenue_by_status")],
        [2, report(2, "other")],
      ]),
      runQuery: (request, signal) => {
        queries.push(request);
        return answer(request, signal);
      },
    },
    store,
    bridge: {
      emitError: (e) => {
        errors.push(`${e.name}: ${e.message}`);
        return true;
      },
    },
    send: (m) => {
      if (port) sent.push(m);
    },
    hasPort: () => port,
  });
  return { asks, sent, errors, queries, store, connect: () => (port = true) };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("createAppAsks", () => {
  it("answers a report's rows under the dashboard's filters now", async () => {
    const { asks, sent, queries, store, connect } = setup();
    connect();
    store.getState().setFilter("sales.status", { member: "sales.status", operator: "equals", value: ["completed"] });
    await asks.runReport("r1", 1);
    expect(queries).toHaveLength(1);
    expect(queries[0]!.query.filters).toContainEqual({ member: "sales.status", operator: "equals", values: ["completed"] });
    expect(sent).toEqual([
      expect.objectContaining({ type: "surface:result", requestId: "r1", ok: true, rows: [{ "sales.revenue": 5 }], columns: ["sales.revenue"] }),
    ]);
  });

  it("refuses a report that is not on the dashboard, and a Python run where the host runs none", async () => {
    const { asks, sent, queries, connect } = setup();
    connect();
    await asks.runReport("r1", 99);
    await asks.runPython("r2", 1);
    expect(queries).toEqual([]);
    expect(sent.map((m) => ("error" in m ? m.error : null))).toEqual(["No report 99 on this dashboard", "No report 1 on this dashboard"]);
  });

  it("runs the reports the app names ahead, sends their rows once the port is there, and an ask reuses the run", async () => {
    const { asks, sent, queries, connect } = setup();
    asks.startEarly(["revenue_by_status"]);
    await settle();
    expect(queries).toHaveLength(1);
    expect(sent).toEqual([]);
    connect();
    asks.sendAllAhead();
    expect(sent).toEqual([expect.objectContaining({ type: "surface:preloaded", reportId: 1, rows: [{ "sales.revenue": 5 }] })]);
    await asks.runReport("r1", 1);
    expect(queries).toHaveLength(1);
    expect(sent.at(-1)).toMatchObject({ type: "surface:result", requestId: "r1", ok: true });
  });

  it("does not send an early run whose query the filters have changed since; the ask runs it again", async () => {
    const { asks, sent, queries, store, connect } = setup();
    asks.startEarly([1]);
    await settle();
    store.getState().setFilter("sales.status", { member: "sales.status", operator: "equals", value: ["shipped"] });
    connect();
    asks.sendAllAhead();
    expect(sent).toEqual([]);
    await asks.runReport("r1", 1);
    expect(queries).toHaveLength(2);
  });

  it("reports a failed query to the app and to the host; a cancelled one to neither", async () => {
    const failing = setup(async () => {
      throw new Error("boom");
    });
    failing.connect();
    await failing.asks.runReport("r1", 1);
    expect(failing.sent).toEqual([expect.objectContaining({ type: "surface:result", requestId: "r1", ok: false, error: "boom" })]);
    expect(failing.errors).toEqual(["QueryFailed: boom"]);

    const pending = setup(
      (_request, signal) => new Promise<QueryResult>((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted")))),
    );
    pending.connect();
    const asked = pending.asks.runReport("r2", 1);
    pending.asks.cancelAll();
    await asked;
    expect(pending.sent).toEqual([]);
    expect(pending.errors).toEqual([]);
  });
});
