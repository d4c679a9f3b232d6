import { expect, test } from "@playwright/test";
import { E2E } from "./support/env";
import { generateSession, getDemoConfig, openHost, waitForEvent } from "./support/embed-harness";

// Three things a host page on another origin sees on its first day (issue 26): a filter in the
// iframe URL applies to the very first queries, a creator who navigates to another tenant's
// workbook gets a NotFound error event, and an unknown embed path says so instead of a blank frame.

const session = generateSession;

test("an f_ parameter in the iframe URL is in every first query of the dashboard", async ({ page }) => {
  const bodies: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (url.startsWith(`${E2E.platformUrl}/api/v1/deployments/`) && /\/query(\/batch)?$/.test(url)) bodies.push(request.postData() ?? "");
  });
  await openHost(page, { params: { "f_sales.status": JSON.stringify({ value: ["cancelled"] }) } });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  expect(bodies.length).toBeGreaterThan(0);
  const queries = bodies.flatMap((b) => {
    const parsed = JSON.parse(b) as { queries?: { query: unknown }[]; query?: unknown };
    return parsed.queries ? parsed.queries.map((q) => JSON.stringify(q)) : [JSON.stringify(parsed)];
  });
  // Every query of a widget on the `sales` view carries the filter, from the first one on.
  const onSales = queries.filter((q) => q.includes('"sales.'));
  expect(onSales.length).toBeGreaterThan(0);
  for (const q of onSales) if (!q.includes('"dimension":"sales.status"') && !q.includes('"member":"sales.status"')) expect(q).toContain("cancelled");
});

test("a creator who navigates to another tenant's workbook gets NotFound", async ({ page }) => {
  const { deploymentId } = await getDemoConfig(page.request);
  // A workbook of globex-inc, made by a globex creator through the API.
  const globex = await session(page.request, { externalId: "hank@globex.example", embedTenantName: "globex-inc", creatorMode: true });
  const exchanged = await page.request.post(`${E2E.platformUrl}/api/v1/embed/session/token`, { data: { sessionId: globex } });
  const { token } = (await exchanged.json()) as { token: string };
  const created = await page.request.post(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/workbooks`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: `globex only ${Date.now().toString(36)}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const foreign = ((await created.json()) as { id: number }).id;

  const acme = await session(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true });
  const src = new URL(`/embed/d/${deploymentId}/app/workbooks/${foreign}`, E2E.platformUrl);
  src.searchParams.set("session", acme);
  await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(src.toString())}`);
  await waitForEvent(page, "svc:event:ready");
  const error = await waitForEvent(page, "svc:event:error", { payload: { name: "NotFound" } });
  expect(error.payload).toMatchObject({ name: "NotFound", fatal: false });
  await expect(page.frameLocator("iframe#embed").getByRole("alert")).toBeVisible();
});

test("an unknown embed path answers with a NotFound error event and says so in the frame", async ({ page }) => {
  const sessionId = await session(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp" });
  const src = new URL("/embed/report/abc123", E2E.platformUrl);
  src.searchParams.set("session", sessionId);
  await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(src.toString())}`);
  const error = await waitForEvent(page, "svc:event:error", { payload: { name: "NotFound" } });
  expect(error.payload).toMatchObject({ name: "NotFound", fatal: true });
  await expect(page.frameLocator("iframe#embed").getByRole("alert")).toContainText(/not found|exist/i);
});
