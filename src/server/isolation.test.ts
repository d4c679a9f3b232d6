/**
 * Isolation matrix: embed viewers of different tenants and deployments × dashboards with
 * different embed access × every data endpoint an embed token may call. Each cell states the
 * one acceptable answer; no cell may yield a 500 or another tenant's data.
 *
 * To cover a new data path (query, drilldown, export, AI), add a row to `dataEndpoints`: it
 * is then checked against every viewer, every dashboard and every token state below.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbedSessions } from "./modules/embed-sessions/service";
import { createSigningKeyRing } from "./modules/embed-sessions/signing-keys";
import { seedDeployment, seedPublishedDashboard, type SeededDashboard } from "./testing/embed-access-fixtures";
import { createTestPlatform, storageKinds, type TestPlatform } from "./testing/test-platform";

type Viewer = "tenantA" | "tenantB" | "noTenant" | "tenantAOtherDeployment";
type DashboardKey = "onlyA" | "onlyB" | "everyone" | "everyoneButB" | "notEmbeddable" | "otherDeployment" | "unpublished";

interface DataEndpoint {
  name: string;
  /** The request a viewer of this dashboard makes. */
  request: (d: SeededDashboard) => { method: string; path: string; body?: unknown };
  /** Text that appears in the answer only when the dashboard's data was served. */
  marker: (d: SeededDashboard) => string;
}

const dataEndpoints: DataEndpoint[] = [
  {
    name: "dashboard read",
    request: (d) => ({ method: "GET", path: `/api/v1/embed/dashboard/${d.publicId}` }),
    marker: (d) => `${d.publicId}-title`,
  },
  // Query, drilldown, export and AI paths scoped to a dashboard are added here when they exist.
];

const TENANT_A = "tenant-aaa";
const TENANT_B = "tenant-bbb";

/** The only acceptable status of each viewer × dashboard cell. */
function expectedStatus(viewer: Viewer, dash: DashboardKey): 200 | 403 | 404 {
  if (viewer === "tenantAOtherDeployment") return dash === "otherDeployment" ? 200 : 404;
  if (dash === "otherDeployment" || dash === "unpublished") return 404;
  if (dash === "notEmbeddable") return 403;
  const tenant = viewer === "tenantA" ? TENANT_A : viewer === "tenantB" ? TENANT_B : null;
  switch (dash) {
    case "onlyA":
      return tenant === TENANT_A ? 200 : 403;
    case "onlyB":
      return tenant === TENANT_B ? 200 : 403;
    case "everyone":
      return 200;
    case "everyoneButB":
      return tenant === TENANT_B ? 403 : 200;
  }
}

describe.each(storageKinds)("embed isolation matrix (%s)", (storage) => {
  let t: TestPlatform;
  const dashboards = {} as Record<DashboardKey, SeededDashboard>;
  const tokens = {} as Record<Viewer, string>;
  let d1: number;
  let d2: number;
  /** The platform's clock runs this far ahead of the real one (the expiry test moves it). */
  let clockAheadMs = 0;

  async function session(deploymentId: number, body: Record<string, unknown>) {
    const gen = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId, ...body });
    expect(gen.status).toBe(200);
    const { sessionId } = await gen.json();
    const ex = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
    expect(ex.status).toBe(200);
    return { sessionId: sessionId as string, token: (await ex.json()).token as string };
  }

  const call = (e: DataEndpoint, d: SeededDashboard, token: string, query = "") => {
    const r = e.request(d);
    return t.api(r.method, r.path + query, r.body, token);
  };

  async function access(d: SeededDashboard, rules: { embedTenantName: string | null; action: "read" | "none" }[]) {
    const res = await t.api("PUT", `/api/v1/deployments/${d.deploymentId}/workbooks/${d.workbookId}/embed-access`, { rules });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    // The platform's sessions on a clock the expiry test can move past a token's expiry, so
    // that the token's checked claims kept by the node (embed-sessions/service.ts) are seen to lapse.
    t = await createTestPlatform({
      storage,
      mutateDeps: (deps) => ({
        ...deps,
        embedSessions: createEmbedSessions({
          db: deps.db,
          keys: createSigningKeyRing(deps.db, deps.secretBox),
          now: () => new Date(Date.now() + clockAheadMs),
        }),
      }),
    });
    const db = t.database.db;
    d1 = await seedDeployment(db, "one");
    d2 = await seedDeployment(db, "two");
    const ids: Record<DashboardKey, string> = {
      onlyA: "IsoOnlyA0001",
      onlyB: "IsoOnlyB0001",
      everyone: "IsoEvery0001",
      everyoneButB: "IsoButB00001",
      notEmbeddable: "IsoNoEmbed01",
      otherDeployment: "IsoOtherDep1",
      unpublished: "IsoDraft0001",
    };
    for (const [key, publicId] of Object.entries(ids) as [DashboardKey, string][]) {
      dashboards[key] = await seedPublishedDashboard(db, {
        deploymentId: key === "otherDeployment" ? d2 : d1,
        publicId,
        title: `${publicId}-title`,
        allowEmbed: key !== "notEmbeddable",
        published: key !== "unpublished",
      });
    }
    await access(dashboards.onlyA, [{ embedTenantName: TENANT_A, action: "read" }]);
    await access(dashboards.onlyB, [{ embedTenantName: TENANT_B, action: "read" }]);
    await access(dashboards.everyone, [{ embedTenantName: null, action: "read" }]);
    await access(dashboards.everyoneButB, [
      { embedTenantName: null, action: "read" },
      { embedTenantName: TENANT_B, action: "none" },
    ]);
    await access(dashboards.notEmbeddable, [{ embedTenantName: null, action: "read" }]);
    await access(dashboards.otherDeployment, [{ embedTenantName: null, action: "read" }]);
    await access(dashboards.unpublished, [{ embedTenantName: null, action: "read" }]);
    tokens.tenantA = (await session(d1, { externalId: "ann", embedTenantName: TENANT_A })).token;
    tokens.tenantB = (await session(d1, { externalId: "bob", embedTenantName: TENANT_B })).token;
    tokens.noTenant = (await session(d1, { externalId: "nobody" })).token;
    tokens.tenantAOtherDeployment = (await session(d2, { externalId: "ann", embedTenantName: TENANT_A })).token;
  });
  afterAll(() => t?.close());

  const viewers: Viewer[] = ["tenantA", "tenantB", "noTenant", "tenantAOtherDeployment"];
  const dashKeys: DashboardKey[] = ["onlyA", "onlyB", "everyone", "everyoneButB", "notEmbeddable", "otherDeployment", "unpublished"];

  for (const endpoint of dataEndpoints) {
    it(`${endpoint.name}: each viewer gets exactly what their tenant and deployment allow`, async () => {
      for (const viewer of viewers) {
        for (const key of dashKeys) {
          const d = dashboards[key];
          const res = await call(endpoint, d, tokens[viewer]);
          const text = await res.text();
          const cell = `${viewer} × ${key}`;
          expect(res.status, cell).toBe(expectedStatus(viewer, key));
          if (res.status === 200) {
            expect(text, cell).toContain(endpoint.marker(d));
          } else {
            expect(text, cell).not.toContain(endpoint.marker(d));
            expect(JSON.parse(text).code, cell).toBe(res.status === 403 ? "forbidden" : "not_found");
          }
        }
      }
    });

    it(`${endpoint.name}: URL parameters cannot change the viewer's tenant, user or attributes`, async () => {
      const spoof = `?embedTenant=${TENANT_B}&embedTenantName=${TENANT_B}&externalId=bob&userAttributes=%7B%22region%22%3A%22all%22%7D&session=x`;
      const res = await call(endpoint, dashboards.onlyB, tokens.tenantA, spoof);
      expect(res.status).toBe(403);
      const own = await call(endpoint, dashboards.onlyA, tokens.tenantA, spoof);
      expect(own.status).toBe(200);
      if (endpoint.name === "dashboard read") {
        expect((await own.json()).viewer).toMatchObject({ embedTenant: TENANT_A, externalId: "ann" });
      }
    });

    it(`${endpoint.name}: a revoked session, an expired token and no token get 401 and no data`, async () => {
      const { sessionId, token } = await session(d1, { externalId: "carol", embedTenantName: TENANT_A });
      expect((await call(endpoint, dashboards.onlyA, token)).status).toBe(200);
      await t.api("POST", "/api/v1/embed/session/revoke", { sessionId });
      for (const [name, bad] of [
        ["revoked", token],
        ["garbage", "not-a-token"],
      ] as const) {
        const res = await call(endpoint, dashboards.onlyA, bad);
        expect(res.status, name).toBe(401);
        expect(await res.text(), name).not.toContain(endpoint.marker(dashboards.onlyA));
      }
      const anonymous = await t.api(endpoint.request(dashboards.everyone).method, endpoint.request(dashboards.everyone).path, undefined, null);
      expect(anonymous.status).toBe(401);
    });
  }

  it("expired tokens are refused on every data endpoint", async () => {
    // The same token, answered (and its claims kept by the node), then used once its expiry has passed.
    const { token } = await session(d1, { externalId: "dan", embedTenantName: TENANT_A });
    const { exp } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { exp: number };
    const d = dashboards.onlyA;
    for (const e of dataEndpoints) expect((await call(e, d, token)).status, e.name).toBe(200);
    clockAheadMs = exp * 1000 - Date.now() + 1000;
    try {
      for (const e of dataEndpoints) {
        const res = await call(e, d, token);
        expect(res.status, e.name).toBe(401);
        expect(await res.text(), e.name).not.toContain(e.marker(d));
      }
    } finally {
      clockAheadMs = 0;
    }
  });

  it("deleting a tenant ends its sessions at once", async () => {
    const { token } = await session(d1, { externalId: "erin", embedTenantName: "tenant-gone" });
    await access(dashboards.everyone, [{ embedTenantName: "tenant-gone", action: "read" }]);
    expect((await t.api("GET", `/api/v1/embed/dashboard/${dashboards.everyone.publicId}`, undefined, token)).status).toBe(200);
    expect((await t.api("DELETE", "/api/v1/embed-tenants/tenant-gone")).status).toBe(204);
    expect((await t.api("GET", `/api/v1/embed/dashboard/${dashboards.everyone.publicId}`, undefined, token)).status).toBe(401);
  });

  it("refuses embed tokens on every management endpoint", async () => {
    const d = dashboards.onlyA;
    const management: [string, string, unknown?][] = [
      ["GET", "/api/v1/embed-tenants/"],
      ["GET", `/api/v1/embed-tenants/${TENANT_B}/users`],
      ["DELETE", `/api/v1/embed-tenants/${TENANT_B}`],
      ["POST", `/api/v1/embed-tenants/${TENANT_B}/groups`, { name: "x" }],
      ["GET", `/api/v1/deployments/${d1}/workbooks/${d.workbookId}/embed-access`],
      ["PUT", `/api/v1/deployments/${d1}/workbooks/${dashboards.onlyB.workbookId}/embed-access`, { rules: [{ embedTenantName: TENANT_A, action: "read" }] }],
      ["PATCH", `/api/v1/embed/dashboard/${dashboards.notEmbeddable.publicId}`, { allowEmbed: true }],
      ["GET", "/api/v1/user-attributes/"],
      ["POST", "/api/v1/user-attributes/", { name: "region", type: "string" }],
      ["POST", "/api/v1/user-attribute-values/", { userId: 1, values: [{ name: "region", value: "all" }] }],
      ["POST", "/api/v1/embed/generate-session", { deploymentId: d1, externalId: "ann", embedTenantName: TENANT_B }],
      ["POST", "/api/v1/embed/session/revoke", { sessionId: "x".repeat(43) }],
      ["GET", "/api/v1/embed/allowed-origins"],
      ["PUT", "/api/v1/embed/allowed-origins", { origins: ["https://evil.example"] }],
      ["GET", "/api/v1/embed/signing-keys"],
      ["POST", "/api/v1/embed/signing-keys/rotate"],
      ["GET", "/api/v1/auth/me"],
    ];
    for (const [method, path, body] of management) {
      const res = await t.api(method, path, body, tokens.tenantA);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // Nothing changed: tenant B still cannot see tenant A's dashboard, and vice versa.
    expect((await t.api("GET", `/api/v1/embed/dashboard/${dashboards.onlyB.publicId}`, undefined, tokens.tenantA)).status).toBe(403);
  });

  it("lets only allowed origins frame the embed", async () => {
    expect((await t.api("PUT", "/api/v1/embed/allowed-origins", { origins: ["https://host.example.com"] })).status).toBe(200);
    const res = await t.app.request(`/embed/dashboard/${dashboards.everyone.publicId}`);
    const csp = res.headers.get("content-security-policy") ?? "";
    const directives = csp.split(";").map((d) => d.trim());
    expect(directives).toContain("frame-ancestors 'self' https://host.example.com");
    expect(directives).toContain("frame-src 'self'");
    expect(csp).not.toContain("*");
    expect(csp).not.toContain("evil.example");
  });
});
