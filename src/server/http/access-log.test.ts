import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, type LogLevel } from "../logger";
import { createTestPlatform } from "../testing/test-platform";
import type { AccessLogOptions } from "../context";
import { loggablePath } from "./access-log";
import { dataModelFiles } from "../db/schema";

interface Line {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** A platform whose log lines (at `level`) are kept in `lines`. */
async function platformWithLog(level: LogLevel, accessLog: AccessLogOptions = {}) {
  const lines: Line[] = [];
  const raw: string[] = [];
  const logger = createLogger(level, (line) => {
    raw.push(line);
    lines.push(JSON.parse(line) as Line);
  });
  const t = await createTestPlatform({ mutateDeps: (deps) => ({ ...deps, logger, accessLog }) });
  return { t, lines, raw };
}

const ORDERS_CUBE = "cubes:\n  - name: orders\n    sql_table: orders\n    measures:\n      - { name: count, type: count }\n";
const SESSION_ID = "sess_0123456789abcdefghijklmnopqrstuvwxyz";
const FILTER_VALUE = "Private Customer Name";
const BAD_KEY = "svc_not_a_real_key_0123456789abcdefghij";
const COOKIE = "cookie0123456789abcdefghijklmnopqrstuvwxyz";

describe("access log", () => {
  let info: Awaited<ReturnType<typeof platformWithLog>>;
  let debug: Awaited<ReturnType<typeof platformWithLog>>;
  beforeAll(async () => {
    [info, debug] = await Promise.all([
      platformWithLog("info", { clientErrorWindowMs: 100, slowRequestMs: 60_000 }),
      platformWithLog("debug", { clientErrorWindowMs: 60_000, slowRequestMs: 60_000 }),
    ]);
  });
  afterAll(async () => {
    await info?.t.close();
    await debug?.t.close();
  });

  it("writes a served request at debug only: nothing at the default level", async () => {
    info.lines.length = 0;
    debug.lines.length = 0;
    for (const p of [info, debug]) expect((await p.t.api("GET", "/api/v1/deployments?first=5")).status).toBe(200);
    expect(info.lines).toEqual([]);
    expect(debug.lines).toEqual([
      expect.objectContaining({
        level: "debug",
        msg: "request",
        method: "GET",
        route: "/api/v1/deployments",
        path: "/api/v1/deployments",
        status: 200,
        requestId: expect.any(String),
        durationMs: expect.any(Number),
      }),
    ]);
  });

  it("keeps 5xx answers visible at warn, with the error line under the same request id", async () => {
    info.lines.length = 0;
    // The embed app is not built in API tests: /embed/* answers 503.
    const res = await info.t.app.request(`/embed/dashboard/PubDash00001?session=${SESSION_ID}`);
    expect(res.status).toBe(503);
    const access = info.lines.find((l) => l.msg === "request");
    expect(access).toMatchObject({ level: "warn", status: 503, path: "/embed/dashboard/PubDash00001", requestId: res.headers.get("x-request-id") });

    // A query on a deployment whose DuckDB file does not exist: the data source is unavailable.
    info.lines.length = 0;
    const [dep] = await info.t.addDeployments("no data");
    await info.t.database.db.insert(dataModelFiles).values({ deploymentId: dep!, path: "orders.yml", content: ORDERS_CUBE });
    const failed = await info.t.api("POST", `/api/v1/deployments/${dep}/query`, { query: { measures: ["orders.count"] } });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    const requestId = failed.headers.get("x-request-id");
    expect(info.lines.find((l) => l.msg === "request")).toMatchObject({ level: "warn", status: failed.status, requestId });
    expect(info.lines.find((l) => l.level === "error")).toMatchObject({ requestId, path: `/api/v1/deployments/${dep}/query` });
  });

  it("sums 4xx answers up in one info line per window instead of a line each", async () => {
    info.lines.length = 0;
    await info.t.api("GET", "/api/v1/deployments", undefined, null);
    await info.t.api("GET", "/api/v1/nothing-here");
    await info.t.api("GET", "/api/v1/nothing-there");
    expect(info.lines).toEqual([]);
    await new Promise((r) => setTimeout(r, 250));
    const summaries = info.lines.filter((l) => l.msg === "client errors");
    expect(summaries).toEqual([expect.objectContaining({ level: "info", total: 3, byStatus: { "401": 1, "404": 2 }, windowMs: 100 })]);
    expect(info.lines).toHaveLength(1);
  });

  it("warns about requests slower than the threshold, and not when it is off", async () => {
    const slow = await platformWithLog("info", { slowRequestMs: 5 });
    const off = await platformWithLog("info", { slowRequestMs: 0 });
    try {
      // A login verifies an Argon2id hash (memory-hard, tens of ms): always over 5 ms.
      const body = { email: "nobody@example.com", password: "wrong password 123" };
      for (const p of [slow, off]) expect((await p.t.api("POST", "/api/v1/auth/login", body, null)).status).toBe(401);
      expect(slow.lines.filter((l) => l.msg === "slow request")).toEqual([
        expect.objectContaining({ level: "warn", route: "/api/v1/auth/login", status: 401, thresholdMs: 5, durationMs: expect.any(Number) }),
      ]);
      expect((slow.lines[0]!.durationMs as number) > 5).toBe(true);
      expect(off.lines.filter((l) => l.msg === "slow request")).toEqual([]);
    } finally {
      await slow.t.close();
      await off.t.close();
    }
  });

  it("never writes a token, a session id, a cookie or a filter value", async () => {
    debug.raw.length = 0;
    const filters = encodeURIComponent(JSON.stringify([{ member: "sales.customer", operator: "equals", values: [FILTER_VALUE] }]));
    const requests: [string, RequestInit][] = [
      [`/embed/dashboard/PubDash00001?session=${SESSION_ID}&filters=${filters}`, {}],
      [`/api/v1/deployments?session=${SESSION_ID}`, { headers: { authorization: `Bearer ${BAD_KEY}` } }],
      ["/api/v1/auth/me", { headers: { cookie: `svc_session=${COOKIE}` } }],
      // A credential put in the path by mistake: the path of no route.
      [`/api/v1/embed/session/${BAD_KEY}`, {}],
      [`/api/v1/embed/session/${SESSION_ID}/token`, {}],
      [
        `/api/v1/deployments/1/query?token=${SESSION_ID}`,
        { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: { filters: [FILTER_VALUE] } }) },
      ],
    ];
    for (const [path, init] of requests) await debug.t.app.request(path, init);
    expect(debug.raw.length).toBeGreaterThanOrEqual(requests.length);
    const all = debug.raw.join("\n");
    for (const secret of [SESSION_ID, FILTER_VALUE, encodeURIComponent(FILTER_VALUE), BAD_KEY, COOKIE]) expect(all).not.toContain(secret);
    expect(all).toContain("/api/v1/embed/session/[redacted]");
  });

  it("redacts only what looks like a credential in a path", () => {
    expect(loggablePath("/api/v1/deployments/12/query")).toBe("/api/v1/deployments/12/query");
    expect(loggablePath("/embed/d/3/app/chat/0b6f3c1e-8d1a-4f5e-9c3b-2a7d9e0f1a2b")).toBe("/embed/d/3/app/chat/0b6f3c1e-8d1a-4f5e-9c3b-2a7d9e0f1a2b");
    expect(loggablePath("/x/svc_abc/eyJhbGciOiJIUzI1NiJ9.e30.sig/aaaaaaaaaaaaaaaaaaaaaaaaaaaa")).toBe("/x/[redacted]/[redacted]/[redacted]");
    expect(loggablePath(`/${"a/".repeat(400)}`)).toHaveLength(301);
  });
});
