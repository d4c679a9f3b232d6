import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app";
import { startOpenAiDouble, type OpenAiDouble } from "../../ai/testing/openai-double";
import { prepareQueryTestData, type QueryTestData } from "../query/query-test-data";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { createShopDeployment, embedSession } from "../../testing/shop-deployment";
import { readNdjson, type Line } from "./chat-test-support";
import { createKnownChatThreads } from "./known-threads";
import { createChatRunRegistry, type ChatRunRegistry } from "./run-registry";

/**
 * A question's run through the chat API (docs/ai.md "How a chat run proceeds"), in a registry
 * the test hands to the app: held while it is written and stored, forgotten when done; a
 * deleted thread cancels it; another node holds none of it and answers from what is stored.
 * A model that stalls keeps a run streaming until the time budget ends it.
 */
const TIME_BUDGET_MS = 1500;
let data: QueryTestData;
let double: OpenAiDouble;
let t: TestPlatform;
let runs: ChatRunRegistry;
let deploymentId: number;
let token: string;

beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 1000, postgres: false });
  double = await startOpenAiDouble();
  double.scripts.set("stall", { kind: "stall" });
  runs = createChatRunRegistry();
  t = await createTestPlatform({
    mutateDeps: (deps) => ({
      ...deps,
      chatRuns: runs,
      ai: { provider: "openai-compatible", baseUrl: double.url, apiKey: "sk-double-key", model: "double-model", timeBudgetMs: TIME_BUDGET_MS },
    }),
  });
  deploymentId = await createShopDeployment(t, data.duckdbPath);
  token = (await embedSession(t, deploymentId, { externalId: "ria", embedTenantName: "acme-corp" })).token;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await double?.close();
  await data?.cleanup();
});

const base = () => `/api/v1/deployments/${deploymentId}/chat/threads`;

async function newThread(): Promise<string> {
  const res = await t.api("POST", base(), {}, token);
  return ((await res.json()) as { id: string }).id;
}

type Node = { request: (path: string, init: RequestInit) => Response | Promise<Response> };

function ask(threadId: string, content: string, messageId: string, node: Node = t.app): Promise<Response> {
  return Promise.resolve(
    node.request(`${base()}/${threadId}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ content, messageId }),
    }),
  );
}

async function messagesOf(threadId: string): Promise<{ id: string; status: string; error?: { code: string } }[]> {
  const res = await t.api("GET", `${base()}/${threadId}`, undefined, token);
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: { id: string; status: string; error?: { code: string } }[] }).messages;
}

/** Waits until `check` holds. */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("the condition did not hold in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const cutoffOf = (threadId: string, messageId: string) => ({ __cutoff__: true, chatId: threadId, messageId });
const timedOut = { error: { code: "ai_timeout", message: expect.any(String) as string } };

describe("a chat run", () => {
  it("is held in the app's registry while it streams and is stored, and forgotten when done", async () => {
    const threadId = await newThread();
    const res = await ask(threadId, "stall", "m1");
    expect(res.status).toBe(200);
    expect(runs.find(threadId, "m1")?.state).toBe("streaming");
    // Still being written after a moment: the thread shows it as running.
    await eventually(async () => (await messagesOf(threadId)).some((m) => m.id === "m1" && m.status === "running"));

    const lines = await readNdjson(res);
    expect(lines).toEqual([cutoffOf(threadId, "m1"), { id: expect.any(String) as string, isDelta: true, type: "text", text: "Let me think" }, timedOut]);
    // A read of the thread waits for the answer to be stored; the run is then forgotten.
    const messages = await messagesOf(threadId);
    expect(messages.map((m) => [m.id, m.status, m.error?.code])).toEqual([
      ["m1-q", "completed", undefined],
      ["m1", "error", "ai_timeout"],
    ]);
    expect(runs.find(threadId, "m1")).toBeUndefined();
    expect(runs.size).toBe(0);
  });

  it("is cancelled when its thread is deleted: its stream still ends, and nothing is stored", async () => {
    const threadId = await newThread();
    const res = await ask(threadId, "stall", "m2");
    expect(runs.find(threadId, "m2")?.state).toBe("streaming");
    expect((await t.api("DELETE", `${base()}/${threadId}`, undefined, token)).status).toBe(204);
    expect(runs.find(threadId, "m2")?.state).toBe("cancelled");
    const lines = await readNdjson(res);
    expect(lines[0]).toEqual(cutoffOf(threadId, "m2"));
    expect(lines[lines.length - 1]).toEqual(timedOut);
    await eventually(() => runs.size === 0);
    expect((await t.api("GET", `${base()}/${threadId}`, undefined, token)).status).toBe(404);
  });

  it("is not held by another node, which answers a rejoin from what is stored", async () => {
    const otherRuns = createChatRunRegistry();
    const otherNode = createApp({ ...t.deps, chatRuns: otherRuns, knownChatThreads: createKnownChatThreads(t.deps.db) });
    const threadId = await newThread();
    const res = await ask(threadId, "stall", "m3");
    await eventually(async () => (await messagesOf(threadId)).some((m) => m.id === "m3" && m.status === "running"));

    // The other node finds the running row: the answer as stored so far, not a second run.
    const rejoined: Line[] = await readNdjson(await ask(threadId, "stall", "m3", otherNode));
    expect(rejoined).toEqual([cutoffOf(threadId, "m3"), { __state__: expect.objectContaining({ id: "m3", status: "running" }) as unknown }]);
    expect(otherRuns.size).toBe(0);
    expect(runs.find(threadId, "m3")?.state).toBe("streaming");

    expect((await readNdjson(res)).at(-1)).toEqual(timedOut);
    await messagesOf(threadId); // stored
    expect(await readNdjson(await ask(threadId, "stall", "m3", otherNode))).toEqual([cutoffOf(threadId, "m3"), timedOut]);
    expect(otherRuns.size).toBe(0);
  });
});
