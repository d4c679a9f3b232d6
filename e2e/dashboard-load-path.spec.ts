import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, dashboardUrl, embedFrame, eventsOf, getDemoConfig, mark, openHost, waitForEvent, waitForWidgetsSettled } from "./support/embed-harness";

async function admin<T>(request: APIRequestContext, method: string, path: string, body?: unknown): Promise<T> {
  const response = await request.fetch(`${E2E.platformUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${E2E.adminToken}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { data: body }),
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return (await response.json()) as T;
}

// The dashboard's load path (docs/dashboards.md "How a dashboard loads"): `ready` goes out from
// the boot as soon as the session is exchanged, before the app's code has run; actions sent on
// `ready` are still applied; the widgets' first queries go out as one batch the widgets then
// use; charts are drawn by the chart worker and answer the pointer.

test("actions a host sends the moment ready arrives are applied once the dashboard is there", async ({ page }) => {
  // The host page answers `ready` synchronously, in the same task.
  await page.addInitScript(
    ({ hostOrigin }) => {
      if (location.origin !== hostOrigin) return;
      window.addEventListener("message", (event) => {
        const data = event.data as { type?: string } | null;
        if (data?.type !== "svc:event:ready") return;
        const post = (type: string, payload: unknown, requestId: string) =>
          (event.source as Window).postMessage({ source: "svc-embed", direction: "action", type, payload, timestamp: Date.now(), requestId }, event.origin);
        post("svc:action:set-filter", { filterUrlParameter: 'f_sales.status={"value":["completed"]}' }, "on-ready-filter");
        post("svc:action:set-color-scheme", { scheme: "dark" }, "on-ready-scheme");
      });
    },
    { hostOrigin: new URL(E2E.hostUrl).origin },
  );
  await openHost(page, { params: {} });
  const filter = await waitForEvent(page, "svc:event:action-result", { payload: { requestId: "on-ready-filter" } });
  expect(filter.payload).toMatchObject({ status: "applied" });
  const scheme = await waitForEvent(page, "svc:event:action-result", { payload: { requestId: "on-ready-scheme" } });
  expect(scheme.payload).toMatchObject({ status: "applied" });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  await waitForWidgetsSettled(page);
  // The filter holds on screen and in the events, and the scheme too.
  await expect(page.frameLocator("#embed").getByTestId("widget-filter_status").locator(".svc-picker-summary")).toHaveText(/completed/);
  const changed = await eventsOf(page, "svc:event:filters-changed");
  expect(changed.at(-1)?.payload).toEqual({ filterUrlParameters: ['f_sales.status={"value":["completed"]}'] });
  expect(await embedFrame(page).evaluate(() => document.documentElement.dataset.colorScheme)).toBe("dark");
});

test("the widgets' first queries go out as one batch, and no widget asks again", async ({ page }) => {
  const singles: string[] = [];
  const batches: { queries: unknown[] }[] = [];
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() !== "POST") return;
    if (/^\/api\/v1\/deployments\/\d+\/query$/.test(path)) singles.push(request.postData() ?? "");
    if (/^\/api\/v1\/deployments\/\d+\/query\/batch$/.test(path)) batches.push(JSON.parse(request.postData() ?? "{}"));
  });
  await openHost(page, { params: {} });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  await waitForWidgetsSettled(page);
  expect(batches).toHaveLength(1);
  // Every chart widget of the demo shown at load: 11 reports, the first tab's chart among them.
  expect(batches[0]!.queries.length).toBeGreaterThanOrEqual(10);
  expect(singles).toEqual([]);
  // A later change queries again, per widget.
  await page.frameLocator("#embed").getByTestId("widget-grain").getByRole("radio", { name: "Year" }).click();
  await expect.poll(() => singles.length).toBeGreaterThan(0);
});

test("a chart drawn by the worker shows its tooltip under the pointer", async ({ page }) => {
  await openHost(page, { params: {} });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  const frame = page.frameLocator("#embed");
  const chart = frame.getByTestId("widget-revenue_by_category");
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute("data-state", "ready");
  const drawing = chart.locator(".svc-chart-canvas svg");
  await expect(drawing).toBeVisible();
  const box = (await drawing.boundingBox())!;
  const tooltip = frame.getByTestId("chart-tooltip");
  // Horizontal bars, longest first: move down a line a third of the way in until one answers.
  for (let y = 0.05; y < 0.95; y += 0.04) {
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * y);
    // The worker answers what is under the pointer a moment later.
    const shown = await expect(tooltip)
      .toBeVisible({ timeout: 500 })
      .then(() => true)
      .catch(() => false);
    if (shown) break;
  }
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText("Revenue");
  await expect(tooltip).toContainText(/Electronics|Home|Sports|Apparel|Toys|Books/);
  // Leaving the chart hides it.
  await page.mouse.move(box.x - 40, box.y - 40);
  await expect(tooltip).toBeHidden();
});

test("a chart with interactive parameters is drawn on the page by vega and still drills down", async ({ page }) => {
  const { deploymentId } = await getDemoConfig(page.request);
  const base = `/api/v1/deployments/${deploymentId}`;
  const reports = await admin<{ items: { id: number; name: string }[] }>(page.request, "GET", `${base}/reports?first=100`);
  const bars = await admin<{ query: unknown; spec: Record<string, unknown>; kind: string }>(
    page.request,
    "GET",
    `${base}/reports/${reports.items.find((r) => r.name === "revenue_by_category")!.id}`,
  );
  const workbook = await admin<{ id: number }>(page.request, "PUT", `${base}/workbooks/by-slug/e2e-live-view`, { name: "Live view" });
  const report = await admin<{ id: number }>(page.request, "PUT", `${base}/reports/by-public-id/e2eLiveView1`, {
    name: "bars_with_selection",
    kind: "vega",
    query: bars.query,
    spec: { ...bars.spec, params: [{ name: "picked", select: { type: "point", on: "pointerover" } }] },
    workbookId: workbook.id,
  });
  await admin(page.request, "PUT", `${base}/workbooks/by-slug/e2e-live-view`, {
    meta: {
      dashboardDraft: { title: "Live view", widgets: [{ id: "live", type: "CHART", position: { x: 0, y: 0, w: 8, h: 6 }, config: { reportId: report.id } }] },
    },
  });
  const dashboard = await admin<{ publicId: string }>(page.request, "POST", `${base}/workbooks/${workbook.id}/dashboard/publish`);
  await admin(page.request, "PUT", `${base}/workbooks/${workbook.id}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] });
  await admin(page.request, "PATCH", `/api/v1/embed/dashboard/${dashboard.publicId}`, { allowEmbed: true });

  await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(dashboardUrl(dashboard.publicId, await createSession(page.request)))}`);
  await waitForEvent(page, "svc:event:dashboard-loaded");
  const chart = page.frameLocator("#embed").getByTestId("widget-live");
  // vega's live view on the page: a canvas, no worker drawing.
  const canvas = chart.locator(".svc-chart-canvas canvas");
  await expect(canvas).toBeVisible();
  await expect(chart.locator(".svc-chart-canvas svg")).toHaveCount(0);
  const box = (await canvas.boundingBox())!;
  const from = await mark(page);
  let event = null;
  for (let y = 0.05; y < 0.95 && !event; y += 0.05) {
    await canvas.click({ position: { x: box.width * 0.3, y: box.height * y } });
    event = await waitForEvent(page, "svc:event:drilldown", { from, timeout: 500 }).catch(() => null);
  }
  expect(event?.payload).toMatchObject({ member: "sales.revenue", widgetId: "live" });
});
