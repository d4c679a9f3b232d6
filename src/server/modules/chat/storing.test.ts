import { EventEmitter } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDeps } from "../../context";
import { prepareQueryTestData, type QueryTestData } from "../query/query-test-data";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { readNdjson } from "./chat-test-support";
import { createShopDeployment, embedSession } from "../../testing/shop-deployment";

/**
 * An answer is stored right after its response has gone out, off the answer's time
 * (docs/ai.md "Figures"): until then a rejoin by messageId replays it from memory and a read
 * of the thread waits for it; a failed write is tried again, so a delivered answer is kept.
 */
let data: QueryTestData;
let t: TestPlatform;
let deploymentId: number;
let token: string;
/** Set to make the next storage statements fail (a database that is briefly away). */
let failNextWrites = 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 1000, postgres: false });
  t = await createTestPlatform({
    mutateDeps: (deps: AppDeps) => {
      const db = new Proxy(deps.db, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver) as unknown;
          if (prop !== "execute" || typeof value !== "function") return value;
          return (...args: unknown[]) => {
            if (failNextWrites > 0) {
              failNextWrites--;
              return Promise.reject(Object.assign(new Error("connection lost"), { code: "08006" }));
            }
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      return { ...deps, db };
    },
  });
  deploymentId = await createShopDeployment(t, data.duckdbPath);
  token = (await embedSession(t, deploymentId, { externalId: "sam", embedTenantName: "acme-corp" })).token;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await data?.cleanup();
});

const base = () => `/api/v1/deployments/${deploymentId}/chat/threads`;
const headers = () => ({ authorization: `Bearer ${token}`, "content-type": "application/json" });

async function newThread() {
  const res = await t.api("POST", base(), {}, token);
  return ((await res.json()) as { id: string }).id;
}

/** Posts a question as the node server would: `outgoing` tells when the response has gone out. */
function ask(threadId: string, content: string, messageId: string, outgoing?: EventEmitter) {
  return t.app.request(
    `${base()}/${threadId}/messages`,
    { method: "POST", headers: headers(), body: JSON.stringify({ content, messageId }) },
    outgoing ? { outgoing } : {},
  );
}

describe("storing chat answers", () => {
  it("stores an answer once it has gone out; meanwhile a rejoin replays it and a read of the thread waits for it", async () => {
    const threadId = await newThread();
    const outgoing = new EventEmitter();
    const first = await readNdjson(await ask(threadId, "orders by status", "m1", outgoing));
    const state = first[first.length - 1]!.__state__ as { id: string; status: string; parts: unknown[] };
    expect(state).toMatchObject({ id: "m1", status: "completed" });

    // Not stored yet: a read of the thread waits.
    let read = false;
    const reading = t.api("GET", `${base()}/${threadId}`, undefined, token).then((r) => {
      read = true;
      return r;
    });
    await sleep(150);
    expect(read).toBe(false);
    // A rejoin by messageId gets the finished answer from memory, as a stored one would be.
    const again = await readNdjson(await ask(threadId, "orders by status", "m1"));
    expect(again).toEqual([first[0], first[first.length - 1]]);

    outgoing.emit("finish");
    const thread = (await (await reading).json()) as { title: string; messages: { id: string; role: string; parts: unknown[] }[] };
    expect(thread.title).toBe("orders by status");
    expect(thread.messages.map((m) => [m.id, m.role])).toEqual([
      ["m1-q", "user"],
      ["m1", "assistant"],
    ]);
    expect(thread.messages[1]!.parts).toEqual(state.parts);
    // Stored: the same messageId now returns the stored answer.
    const stored = await readNdjson(await ask(threadId, "orders by status", "m1"));
    expect(stored).toHaveLength(2);
    expect(stored[1]!.__state__).toMatchObject({ id: "m1", status: "completed", parts: state.parts });
  });

  it("stores the answer without waiting long for a response that never reports going out", async () => {
    const threadId = await newThread();
    await readNdjson(await ask(threadId, "total revenue", "m2", new EventEmitter()));
    const thread = (await (await t.api("GET", `${base()}/${threadId}`, undefined, token)).json()) as { messages: { id: string }[] };
    expect(thread.messages.map((m) => m.id)).toEqual(["m2-q", "m2"]);
  });

  it("tries the write again when the database is briefly away: the delivered answer is kept", async () => {
    const threadId = await newThread();
    failNextWrites = 2;
    const lines = await readNdjson(await ask(threadId, "revenue by category", "m3"));
    expect(lines[lines.length - 1]!.__state__).toBeDefined();
    const thread = (await (await t.api("GET", `${base()}/${threadId}`, undefined, token)).json()) as { messages: { id: string; role: string }[] };
    expect(failNextWrites).toBe(0);
    expect(thread.messages.map((m) => m.id)).toEqual(["m3-q", "m3"]);
  });

  it("stores nothing for a thread deleted while its answer was going out", async () => {
    const threadId = await newThread();
    const outgoing = new EventEmitter();
    await readNdjson(await ask(threadId, "revenue by category", "m4", outgoing));
    const deleting = t.api("DELETE", `${base()}/${threadId}`, undefined, token);
    outgoing.emit("finish");
    expect((await deleting).status).toBe(204);
    expect((await t.api("GET", `${base()}/${threadId}`, undefined, token)).status).toBe(404);
    // The thread is forgotten: a question in it is refused.
    expect((await ask(threadId, "orders", "m5")).status).toBe(404);
  });
});
