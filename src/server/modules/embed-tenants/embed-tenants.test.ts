import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDeployment, seedPublishedDashboard, type SeededDashboard } from "../../testing/embed-access-fixtures";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

describe.each(storageKinds)("embed tenants, groups and access API (%s)", (storage) => {
  let t: TestPlatform;
  let deploymentId: number;
  let dash: SeededDashboard;

  const session = async (body: Record<string, unknown>) => {
    const res = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId, ...body });
    expect(res.status).toBe(200);
    const { sessionId } = await res.json();
    return (await (await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null)).json()).token as string;
  };

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    deploymentId = await seedDeployment(t.database.db, "tenants");
    dash = await seedPublishedDashboard(t.database.db, { deploymentId, publicId: "TenDash00001", title: "Tenant dash", allowEmbed: false });
    for (const [id, tenant] of [
      ["u1", "north-wind"],
      ["u2", "north-wind"],
      ["u3", "south-wind"],
    ]) {
      await session({ externalId: id, embedTenantName: tenant, embedTenantProfile: { displayName: tenant.toUpperCase() } });
    }
  });
  afterAll(() => t?.close());

  it("lists tenants with their user counts and pages them", async () => {
    const res = await t.api("GET", "/api/v1/embed-tenants/?first=1");
    expect(res.status).toBe(200);
    const page = await res.json();
    expect(page.items).toEqual([expect.objectContaining({ name: "north-wind", displayName: "NORTH-WIND", userCount: 2 })]);
    expect(page).toMatchObject({ count: 2, pageInfo: { hasNextPage: true } });
    const next = await (await t.api("GET", `/api/v1/embed-tenants/?after=${page.pageInfo.endCursor}`)).json();
    expect(next.items.map((x: { name: string }) => x.name)).toEqual(["south-wind"]);
    expect((await t.api("GET", "/api/v1/embed-tenants")).status).toBe(200);
  });

  it("lists a tenant's users and answers 404 for an unknown tenant", async () => {
    const users = await (await t.api("GET", "/api/v1/embed-tenants/north-wind/users")).json();
    expect(users.items.map((u: { externalId: string }) => u.externalId)).toEqual(["u1", "u2"]);
    expect((await t.api("GET", "/api/v1/embed-tenants/no-such-tenant/users")).status).toBe(404);
    expect((await t.api("GET", "/api/v1/embed-tenants/BAD/users")).status).toBe(400);
  });

  it("manages groups and members; system: names are refused and delete is 204", async () => {
    const refused = await t.api("POST", "/api/v1/embed-tenants/north-wind/groups", { name: "system:admins" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).details[0].path).toEqual(["name"]);
    const created = await t.api("POST", "/api/v1/embed-tenants/north-wind/groups", { name: "finance", displayName: "Finance" });
    expect(created.status).toBe(201);
    const group = await created.json();
    expect(group).toMatchObject({ embedTenantName: "north-wind", name: "finance", memberCount: 0 });
    expect((await t.api("POST", "/api/v1/embed-tenants/north-wind/groups", { name: "finance" })).status).toBe(409);
    const base = `/api/v1/embed-tenants/north-wind/groups/${group.id}`;
    const patched = await t.api("PATCH", base, { displayName: "Finance team" });
    expect(await patched.json()).toMatchObject({ displayName: "Finance team" });
    expect((await t.api("PATCH", base, { name: "system:x" })).status).toBe(400);

    const added = await t.api("POST", `${base}/users`, { externalIds: ["U1", "u2", "u1"] });
    expect(added.status).toBe(200);
    expect((await added.json()).items.map((u: { externalId: string }) => u.externalId)).toEqual(["u1", "u2"]);
    // A user of another tenant is not found here, and nothing is added.
    const foreign = await t.api("POST", `${base}/users`, { externalIds: ["u3"] });
    expect(foreign.status).toBe(400);
    expect((await t.api("DELETE", `${base}/users`, { externalIds: ["u2"] })).status).toBe(204);
    const members = await (await t.api("GET", `${base}/users`)).json();
    expect(members.items.map((u: { externalId: string }) => u.externalId)).toEqual(["u1"]);
    expect((await (await t.api("GET", base)).json()).memberCount).toBe(1);

    // A group id is only reachable through its own tenant.
    expect((await t.api("GET", `/api/v1/embed-tenants/south-wind/groups/${group.id}`)).status).toBe(404);
    expect((await t.api("DELETE", base)).status).toBe(204);
    expect((await t.api("GET", base)).status).toBe(404);
  });

  it("sets embed access per tenant and for all users; a tenant's none beats all-users read", async () => {
    const path = `/api/v1/deployments/${deploymentId}/workbooks/${dash.workbookId}/embed-access`;
    const north = await session({ externalId: "u1", embedTenantName: "north-wind" });
    const south = await session({ externalId: "u3", embedTenantName: "south-wind" });
    const view = (token: string) => t.api("GET", `/api/v1/embed/dashboard/${dash.publicId}`, undefined, token);

    const put = await t.api("PUT", path, {
      rules: [
        { embedTenantName: null, action: "read" },
        { embedTenantName: "south-wind", action: "none" },
      ],
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      workbookId: dash.workbookId,
      dashboardPublicId: dash.publicId,
      allowEmbed: false,
      rules: [
        { embedTenantName: null, action: "read" },
        { embedTenantName: "south-wind", action: "none" },
      ],
    });
    // Not embeddable yet: forbidden for everyone, with a clear message.
    const off = await view(north);
    expect(off.status).toBe(403);
    expect((await off.json()).message).toMatch(/not enabled for embedding/);

    const patch = await t.api("PATCH", `/api/v1/embed/dashboard/${dash.publicId}`, { allowEmbed: true });
    expect(await patch.json()).toMatchObject({ publicId: dash.publicId, allowEmbed: true });
    expect((await view(north)).status).toBe(200);
    const denied = await view(south);
    expect(denied.status).toBe(403);
    expect((await denied.json()).message).toMatch(/not shared/);

    // Changing one rule leaves the others; replace drops what is not listed.
    await t.api("PUT", path, { rules: [{ embedTenantName: "south-wind", action: "read" }] });
    expect((await view(south)).status).toBe(200);
    await t.api("PUT", path, { rules: [{ embedTenantName: "south-wind", action: "read" }], replace: true });
    expect((await view(north)).status).toBe(403);
    expect((await (await t.api("GET", path)).json()).rules).toEqual([{ embedTenantName: "south-wind", action: "read" }]);

    expect((await t.api("GET", `/api/v1/deployments/${deploymentId + 99}/workbooks/${dash.workbookId}/embed-access`)).status).toBe(404);
    expect((await t.api("PUT", path, { rules: [{ embedTenantName: "BAD NAME", action: "read" }] })).status).toBe(400);
    expect((await t.api("PUT", path, { rules: [{ embedTenantName: null, action: "write" }] })).status).toBe(400);
    expect((await t.api("PATCH", "/api/v1/embed/dashboard/Nope00000000", { allowEmbed: true })).status).toBe(404);
  });

  it("deletes a tenant with 204; the old trailing-slash path is gone", async () => {
    expect((await t.api("DELETE", "/api/v1/embed-tenants/south-wind/")).status).toBe(404);
    expect((await t.api("DELETE", "/api/v1/embed-tenants/south-wind")).status).toBe(204);
    expect((await t.api("DELETE", "/api/v1/embed-tenants/south-wind")).status).toBe(404);
    expect((await t.api("GET", "/api/v1/embed-tenants/south-wind/users")).status).toBe(404);
  });
});
