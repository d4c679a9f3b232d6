import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareQueryTestData, type QueryTestData } from "../query/query-test-data";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { readNdjson, type Line } from "./chat-test-support";
import { createShopDeployment, embedSession } from "../../testing/shop-deployment";

/**
 * Sharing a chat thread read-only: with the owner's audience only (the embed users of their
 * tenant, or the platform's users), governed by the `share` policy, and a reader sees each
 * answer computed again under their own security context — never the owner's rows or words.
 */
let data: QueryTestData;
beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 2000, postgres: false });
}, 60_000);
afterAll(() => data?.cleanup());

type Thread = { id: string; shared: boolean; readOnly?: boolean; messages: { id: string; role: string; content: string; status: string; parts: Line[] }[] };

describe.each(storageKinds)("chat: shared threads (%s storage)", (storage) => {
  let t: TestPlatform;
  let deploymentId: number;
  const tok: Record<string, string> = {};
  const base = () => `/api/v1/deployments/${deploymentId}/chat`;

  const session = async (body: Record<string, unknown>) => (await embedSession(t, deploymentId, body)).token;

  async function threadWith(token: string, ...questions: string[]) {
    const threadId = ((await (await t.api("POST", `${base()}/threads`, {}, token)).json()) as { id: string }).id;
    for (const q of questions) await readNdjson(await t.api("POST", `${base()}/threads/${threadId}/messages`, { content: q }, token));
    return threadId;
  }
  const share = (token: string, threadId: string, shared = true) => t.api("PUT", `${base()}/threads/${threadId}/share`, { shared }, token);
  const read = (token: string, threadId: string) => t.api("GET", `${base()}/threads/${threadId}`, undefined, token);
  const sharedList = async (token: string) =>
    (await (await t.api("GET", `${base()}/shared-threads`, undefined, token)).json()) as { data: { id: string; readOnly: boolean }[]; canShare: boolean };
  const sharedWith = async (token: string) => (await sharedList(token)).data;
  const rowsOf = async (token: string, query: unknown) =>
    ((await (await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, { query }, token)).json()) as { data: unknown[] }).data;

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    deploymentId = await createShopDeployment(t, data.duckdbPath);
    tok.ann = await session({ externalId: "ann", embedTenantName: "acme-corp" });
    tok.bob = await session({ externalId: "bob", embedTenantName: "acme-corp" });
    tok.anonymous = await session({ embedTenantName: "acme-corp" });
    tok.gus = await session({ externalId: "gus", embedTenantName: "globex-inc" });
    tok.ann2 = await session({ externalId: "ann", embedTenantName: "globex-inc" });
    tok.viewer = (await t.addUser("share-viewer@example.com", "viewer")).token;
  }, 60_000);
  afterAll(() => t?.close());

  it("shares a thread read-only with the owner's tenant, never another tenant", async () => {
    const threadId = await threadWith(tok.ann!, "revenue by category", "orders by status");
    expect(((await (await read(tok.ann!, threadId)).json()) as Thread).shared).toBe(false);
    expect((await read(tok.bob!, threadId)).status).toBe(404);

    const shared = await share(tok.ann!, threadId);
    expect(shared.status).toBe(200);
    expect(await shared.json()).toMatchObject({ id: threadId, shared: true });

    // Bob (same tenant) and an acme session without a user id read it; it is listed as shared with them.
    for (const reader of [tok.bob!, tok.anonymous!]) {
      const thread = (await (await read(reader, threadId)).json()) as Thread;
      expect(thread).toMatchObject({ id: threadId, shared: true, readOnly: true });
      expect(thread.messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["revenue by category", "orders by status"]);
      expect((await sharedWith(reader)).map((x) => x.id)).toContain(threadId);
    }
    // The owner does not list their own thread as shared with them.
    expect((await sharedWith(tok.ann!)).map((x) => x.id)).not.toContain(threadId);
    // Globex — the same externalId in another tenant included — never sees it.
    for (const other of [tok.gus!, tok.ann2!, tok.viewer!]) {
      expect((await read(other, threadId)).status).toBe(404);
      expect((await sharedWith(other)).map((x) => x.id)).not.toContain(threadId);
    }

    // Read-only: a reader cannot ask in it, share, delete or save from it.
    expect((await t.api("POST", `${base()}/threads/${threadId}/messages`, { content: "orders" }, tok.bob)).status).toBe(404);
    expect((await share(tok.bob!, threadId, false)).status).toBe(404);
    expect((await t.api("DELETE", `${base()}/threads/${threadId}`, undefined, tok.bob)).status).toBe(404);
    const answerId = ((await (await read(tok.ann!, threadId)).json()) as Thread).messages.find((m) => m.role === "assistant")!.id;
    // (Bob may not save answers at all; were he allowed, the thread is not his: 404.)
    expect((await t.api("POST", `${base()}/threads/${threadId}/messages/${answerId}/report`, { name: "x" }, tok.bob)).status).toBe(403);

    // Unshared, it is the owner's alone again.
    expect(await (await share(tok.ann!, threadId, false)).json()).toMatchObject({ shared: false });
    expect((await read(tok.bob!, threadId)).status).toBe(404);
    expect((await sharedWith(tok.bob!)).map((x) => x.id)).not.toContain(threadId);
  });

  it("shows a reader each answer computed under their own security context, never the owner's rows or words", async () => {
    // An admin's answer counts every tenant's orders; a platform viewer's own rows are none.
    const threadId = await threadWith(t.adminToken, "how many orders", "revenue by category");
    const owner = (await (await read(t.adminToken, threadId)).json()) as Thread;
    const ownerText = owner.messages[1]!.parts.filter((p) => p.type === "text").map((p) => String(p.text));
    expect(ownerText.join("")).toMatch(/\d/);
    expect((await share(t.adminToken, threadId)).status).toBe(200);

    const thread = (await (await read(tok.viewer!, threadId)).json()) as Thread;
    expect(thread.readOnly).toBe(true);
    const answers = thread.messages.filter((m) => m.role === "assistant");
    expect(answers).toHaveLength(2);
    for (const answer of answers) {
      // No word of the owner's answer, no SQL, no steps: the query, and the reader's own table.
      expect(answer.content).toBe("");
      expect(answer.parts.some((p) => p.type === "text" || p.type === "tool_call" || p.type === "tool_result")).toBe(false);
      const query = answer.parts.find((p) => p.type === "query") as Line & { query: unknown; sql?: string };
      expect(query.sql).toBeUndefined();
      const table = answer.parts.find((p) => p.type === "table") as Line & { rows: unknown[] };
      expect(table.rows).toEqual(await rowsOf(tok.viewer!, query.query));
      expect(table.rows).not.toEqual(await rowsOf(t.adminToken, query.query));
    }
    // The chart is drawn from the reader's rows too.
    const chart = answers[1]!.parts.find((p) => p.type === "chart") as Line & { spec: { data: { values: unknown[] } } };
    const table = answers[1]!.parts.find((p) => p.type === "table") as Line & { rows: unknown[] };
    expect(chart.spec.data.values).toEqual(table.rows);
    expect(JSON.stringify(thread)).not.toContain(ownerText[ownerText.length - 1]!.slice(0, 40));
  });

  it("is governed by the share policy, and refused to sessions without a user id", async () => {
    const threadId = await threadWith(tok.ann!, "revenue by category");
    expect((await share(tok.anonymous!, await threadWith(tok.anonymous!, "total revenue"))).status).toBe(403);
    expect((await sharedList(tok.anonymous!)).canShare).toBe(false);
    expect((await sharedList(tok.ann!)).canShare).toBe(true);

    const policies = async (chatThreadPolicies: unknown[]) =>
      expect((await t.api("PUT", "/api/v1/tenant/settings", { ai: { chatThreadPolicies } })).status).toBe(200);
    try {
      await policies([{ actions: ["share"], effect: "deny", resourceType: "chatThread", resources: ["*"] }]);
      expect((await share(tok.ann!, threadId)).status).toBe(403);
      expect((await sharedList(tok.ann!)).canShare).toBe(false);
      // Sharing is refused for a thread about a view the policy keeps private.
      await policies([{ actions: ["share"], effect: "deny", resourceType: "chatThread", resources: ["sales"] }]);
      const refused = await share(tok.ann!, threadId);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { message: string }).message).toMatch(/sales/);
      await policies([{ actions: ["share"], effect: "deny", resourceType: "chatThread", resources: ["customer_base"] }]);
      expect((await share(tok.ann!, threadId)).status).toBe(200);
    } finally {
      await policies([]);
    }
  });
});
