import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployments } from "../server/db/schema";
import { createTestPlatform, storageKinds, type TestPlatform } from "../server/testing/test-platform";
import {
  createSvcCloudClient,
  createSvcPlatformClient,
  paginate,
  retryUpsert,
  SvcPlatformApiError,
  upsertWorkbookBySlug,
  type PlatformApiSchemas,
  type SvcCloudClientConfig,
  type SvcPlatformClientConfig,
} from "./index";

const BASE = "http://svc.test";

describe.each(storageKinds)("createSvcPlatformClient (%s)", (storage) => {
  let t: TestPlatform;
  const seen: Request[] = [];
  // Our real server, in-process: the request goes through every middleware and route.
  const appFetch = async (request: Request) => {
    seen.push(request.clone());
    return t.app.fetch(request);
  };

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    await t.database.db.insert(deployments).values(Array.from({ length: 5 }, (_, i) => ({ name: `dep-${i}`, dataSource: { kind: "duckdb" } as never })));
  });
  afterAll(() => t.close());

  it("sends the token as a bearer header and returns typed data", async () => {
    const client = createSvcPlatformClient({ baseUrl: BASE + "/", token: t.adminToken, fetch: appFetch });
    const { data, error, response } = await client.GET("/api/v1/deployments", { params: { query: { first: 2 } } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    const first: PlatformApiSchemas.Deployment | undefined = data?.items[0];
    expect(first?.name).toBe("dep-0");
    expect(data?.pageInfo.hasNextPage).toBe(true);
    expect(seen.at(-1)?.url).toBe(`${BASE}/api/v1/deployments?first=2`);
  });

  it("returns API errors as values instead of throwing", async () => {
    const client = createSvcPlatformClient({ baseUrl: BASE, token: "svc_not-a-real-key", fetch: appFetch });
    const result = await client.GET("/api/v1/deployments/{deploymentId}", { params: { path: { deploymentId: 1 } } });
    expect(result.data).toBeUndefined();
    expect(result.response.status).toBe(401);
    expect(result.error?.code).toBe("unauthorized");
  });

  it("merges getHeaders per request, awaiting it each time", async () => {
    let calls = 0;
    const client = createSvcPlatformClient({
      baseUrl: BASE,
      fetch: appFetch,
      getHeaders: async () => ({ authorization: `Bearer ${t.adminToken}`, "x-call": String(++calls) }),
    });
    const a = await client.GET("/api/v1/api-keys");
    const b = await client.GET("/api/v1/api-keys");
    expect(a.response.status).toBe(200);
    expect(b.data?.items.length).toBeGreaterThan(0);
    expect(seen.at(-1)?.headers.get("x-call")).toBe("2");
  });

  it("forwards credentials to fetch, and keeps the same-origin default when unset", async () => {
    const recorded: RequestCredentials[] = [];
    const recording = async (request: Request) => {
      recorded.push(request.credentials);
      return t.app.fetch(request);
    };
    await createSvcPlatformClient({ baseUrl: BASE, token: t.adminToken, credentials: "omit", fetch: recording }).GET("/api/v1/api-keys");
    await createSvcPlatformClient({ baseUrl: BASE, token: t.adminToken, fetch: recording }).GET("/api/v1/api-keys");
    await createSvcPlatformClient({ baseUrl: BASE, token: t.adminToken, credentials: "include", fetch: recording }).GET("/api/v1/api-keys");
    expect(recorded).toEqual(["omit", "same-origin", "include"]);
  });

  it("throws only on transport failures", async () => {
    const client = createSvcPlatformClient({
      baseUrl: BASE,
      token: t.adminToken,
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    await expect(client.GET("/api/v1/api-keys")).rejects.toThrow(TypeError);
  });

  it("walks every cursor page with paginate", async () => {
    const client = createSvcPlatformClient({ baseUrl: BASE, token: t.adminToken, fetch: appFetch });
    const before = seen.length;
    const names: string[] = [];
    for await (const d of paginate(client, "/api/v1/deployments", { params: { query: { first: 2 } } })) names.push(d.name);
    expect(names).toEqual(["dep-0", "dep-1", "dep-2", "dep-3", "dep-4"]);
    expect(seen.length - before).toBe(3);
    expect(new URL(seen.at(-1)!.url).searchParams.get("after")).toBeTruthy();
  });

  it("ends paginate with SvcPlatformApiError on an API error", async () => {
    const client = createSvcPlatformClient({ baseUrl: BASE, token: "svc_revoked", fetch: appFetch });
    const walk = async () => {
      for await (const _ of paginate(client, "/api/v1/deployments")) void _;
    };
    await expect(walk()).rejects.toMatchObject({ name: "SvcPlatformApiError", status: 401, code: "unauthorized" });
    await expect(walk()).rejects.toBeInstanceOf(SvcPlatformApiError);
  });
});

describe("upsert retry", () => {
  const conflict = (code: string) => new Response(JSON.stringify({ code, message: code }), { status: 409, headers: { "content-type": "application/json" } });
  const ok = () => new Response(JSON.stringify({ id: 1 }), { status: 200, headers: { "content-type": "application/json" } });

  it("retries 409 upsert_branch_changed with growing, jittered, capped waits", async () => {
    const answers = [conflict("upsert_branch_changed"), conflict("upsert_branch_changed"), conflict("upsert_branch_changed"), ok()];
    const waits: number[] = [];
    const paths: string[] = [];
    const client = createSvcPlatformClient({
      baseUrl: BASE,
      token: "svc_x",
      fetch: async (r) => (paths.push(`${r.method} ${new URL(r.url).pathname}`), answers.shift()!),
    });
    const result = await upsertWorkbookBySlug(
      client,
      { deploymentId: 7, slug: "sales", body: { name: "Sales" } },
      { retries: 5, baseDelayMs: 100, maxDelayMs: 250, random: () => 0.5, sleep: async (ms) => void waits.push(ms) },
    );
    expect(result.response.status).toBe(200);
    expect(waits).toEqual([50, 100, 125]);
    expect(paths).toEqual(Array(4).fill("PUT /api/v1/deployments/7/workbooks/by-slug/sales"));
  });

  it("gives up after the retry budget and returns the last 409", async () => {
    let calls = 0;
    const result = await retryUpsert(async () => (calls++, { error: { code: "upsert_branch_changed" }, response: conflict("upsert_branch_changed") }), {
      retries: 2,
      sleep: async () => {},
    });
    expect(calls).toBe(3);
    expect(result.response.status).toBe(409);
  });

  it("never retries other 409s", async () => {
    let calls = 0;
    const client = createSvcPlatformClient({ baseUrl: BASE, fetch: async () => (calls++, conflict("conflict")) });
    const result = await upsertWorkbookBySlug(client, { deploymentId: 1, slug: "x" }, { sleep: async () => {} });
    expect(calls).toBe(1);
    expect(result.error?.code).toBe("conflict");
  });
});

describe("deprecated client aliases", () => {
  it("are the platform-prefixed objects themselves", () => {
    expect(createSvcCloudClient).toBe(createSvcPlatformClient);
    const config: SvcCloudClientConfig = { baseUrl: BASE };
    const same: SvcPlatformClientConfig = config;
    expect(same).toBe(config);
  });
});
