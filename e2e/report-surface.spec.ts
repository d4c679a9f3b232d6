import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, eventsOf, generateSession, getDemoConfig, openEmbedInHost, requestAction, waitForEvent } from "./support/embed-harness";

// The report surface: one report of the demo dashboard in a frame of its own, from the host's
// origin. It gets ready, takes the dashboard's filters, exports within the session's grant and
// is refused the rest on the platform; beside a dashboard and a chat on one page, each frame
// keeps its own session, filters and events.

const SCREENSHOTS = process.env.SVC_REPORT_SHOTS;

interface DemoReport {
  id: number;
  publicId: string;
}

/** The demo dashboard's report shown by widget `widgetId` (asked with the admin key). */
async function demoReport(request: APIRequestContext, widgetId: string): Promise<DemoReport> {
  const { dashboardPublicId, deploymentId } = await getDemoConfig(request);
  const admin = { authorization: `Bearer ${E2E.adminToken}` };
  const dash = await request.get(`${E2E.platformUrl}/api/v1/embed/dashboard/${dashboardPublicId}`, { headers: admin });
  const { dashboard } = (await dash.json()) as { dashboard: { config: { widgets: { id: string; config?: { reportId?: number } }[] } } };
  const id = dashboard.config.widgets.find((w) => w.id === widgetId)!.config!.reportId!;
  const report = await request.get(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/reports/${id}`, { headers: admin });
  expect(report.status()).toBe(200);
  return { id, publicId: ((await report.json()) as { publicId: string }).publicId };
}

function reportUrl(path: string, sessionId: string, params: Record<string, string> = {}): string {
  const url = new URL(`/embed/${path}`, E2E.platformUrl);
  url.searchParams.set("session", sessionId);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

const COMPLETED = 'f_sales.status={"value":["completed"]}';

test.describe("the report surface from another origin", () => {
  test("gets ready, applies a filter, exports CSV within the grant, drills, and is refused a format outside it", async ({ browser }) => {
    const page = await browser.newPage({ acceptDownloads: true });
    const { deploymentId } = await getDemoConfig(page.request);
    const cities = await demoReport(page.request, "top_cities");
    const sessionId = await generateSession(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", settings: { allowExport: ["csv"] } });
    const token = new Promise<string>((resolve) => {
      page.on("request", (r) => {
        const authorization = r.headers().authorization;
        if (r.url().startsWith(`${E2E.platformUrl}/api/v1/`) && authorization?.startsWith("Bearer ")) resolve(authorization.slice("Bearer ".length));
      });
    });
    const frame = await openEmbedInHost(page, reportUrl(`report/${cities.publicId}`, sessionId, { allowExport: "true" }), { width: 900, height: 560 });

    const [ready] = await eventsOf(page, "svc:event:ready");
    expect(ready!.surface).toBe("report");
    expect(ready!.payload).toMatchObject({ surface: "report", mode: "signed", publicId: cities.publicId, embedTenant: "acme-corp", exportFormats: ["csv"] });
    const capabilities = ready!.payload.capabilities as { events: string[]; actions: string[] };
    expect(capabilities.events).toEqual(expect.arrayContaining(["svc:event:filters-changed", "svc:event:download", "svc:event:drilldown"]));
    expect(capabilities.events).not.toContain("svc:event:dashboard-loaded");
    await waitForEvent(page, "svc:event:view", { payload: { surface: "report", publicId: cities.publicId } });
    const widget = frame.getByTestId("widget-top_cities");
    await expect(widget).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await expect(frame.getByTestId("report")).toHaveAttribute("data-public-id", cities.publicId);

    // A filter the dashboard has a control for applies, and the report asks again with it.
    const filtered = page.waitForRequest((r) => r.url().endsWith(`/deployments/${deploymentId}/query`) && (r.postData() ?? "").includes("completed"));
    expect((await requestAction(page, "svc:action:set-filter", { filterUrlParameter: COMPLETED })).status).toBe("applied");
    await waitForEvent(page, "svc:event:filters-changed", { payload: { filterUrlParameters: [COMPLETED] } });
    await filtered;
    await expect(widget).toHaveAttribute("data-state", "ready");
    // One it has none for is ignored, as on the dashboard.
    const category = await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.products_category={"value":["Books"]}' });
    expect(category).toMatchObject({ status: "ignored", reason: "no-filter-control" });

    // CSV within the grant: the control, the file, the event.
    await expect(frame.locator('[data-testid^="export-xlsx-"], [data-testid^="export-png-"], [data-testid^="export-pdf-"]')).toHaveCount(0);
    await widget.hover();
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 45_000 }), frame.getByTestId("export-csv-top_cities").click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    expect(readFileSync((await download.path())!).toString("utf8")).toMatch(/City/);
    await waitForEvent(page, "svc:event:download", { payload: { format: "csv", target: "widget", widgetId: "top_cities" } });

    // Drill as on the dashboard: the rows panel, its exports within the grant, the event.
    await widget.locator(".svc-table-body .svc-drill-button").first().click();
    const panel = frame.getByTestId("drilldown-panel");
    await expect(panel).toHaveAttribute("data-state", "ready");
    await expect(panel.getByTestId("drilldown-export-csv")).toBeVisible();
    await expect(panel.getByTestId("drilldown-export-xlsx")).toHaveCount(0);
    await waitForEvent(page, "svc:event:drilldown", { payload: { widgetId: "top_cities" } });
    await panel.getByRole("button", { name: "Close" }).click();

    // Outside the grant: the platform refuses the report's rows as XLSX and a PNG of it, whatever a page forges.
    const bearer = { authorization: `Bearer ${await token}` };
    const snapshotQuery = { measures: ["sales.revenue"], dimensions: ["sales.customers_city"], limit: 10 };
    const xlsx = await page.request.post(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/query`, {
      headers: bearer,
      data: { query: snapshotQuery, export: { format: "xlsx" } },
    });
    expect(xlsx.status()).toBe(403);
    expect(((await xlsx.json()) as { code: string }).code).toBe("export_format_not_allowed");
    const png = await page.request.post(`${E2E.platformUrl}/api/v1/embed/exports`, { headers: bearer, data: { format: "png", target: "widget" } });
    expect(png.status()).toBe(403);
    const csv = await page.request.post(`${E2E.platformUrl}/api/v1/embed/exports`, { headers: bearer, data: { format: "csv", target: "widget" } });
    expect(csv.status()).toBeLessThan(300);
    await page.close();
  });

  test("the signed form by id shows the same report; a report outside the session's deployment ends with NotFound", async ({ browser }) => {
    const page = await browser.newPage();
    const { deploymentId } = await getDemoConfig(page.request);
    const trend = await demoReport(page.request, "revenue_trend");
    const frame = await openEmbedInHost(page, reportUrl(`d/${deploymentId}/report/${trend.id}`, await createSession(page.request)), {
      width: 900,
      height: 520,
    });
    const [ready] = await eventsOf(page, "svc:event:ready");
    expect(ready!.payload).toMatchObject({ surface: "report", mode: "signed", deploymentId });
    await waitForEvent(page, "svc:event:view", { payload: { surface: "report", publicId: trend.publicId } });
    await expect(frame.getByTestId("widget-revenue_trend")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });

    await openEmbedInHost(page, reportUrl(`d/${deploymentId + 1000}/report/${trend.id}`, await createSession(page.request)), { width: 900, height: 520 });
    await waitForEvent(page, "svc:event:error", { payload: { name: "NotFound", fatal: true } });
    await page.close();
  });

  test("screens: light and dark, desktop and phone", async ({ browser }) => {
    test.skip(!SCREENSHOTS, "SVC_REPORT_SHOTS names the folder for the pictures");
    const page = await browser.newPage();
    for (const [widgetId, size] of [
      ["revenue_trend", { width: 900, height: 480, name: "desktop" }],
      ["top_cities", { width: 360, height: 600, name: "phone" }],
    ] as const) {
      const report = await demoReport(page.request, widgetId);
      const frame = await openEmbedInHost(page, reportUrl(`report/${report.publicId}`, await createSession(page.request), { allowExport: "true" }), {
        width: size.width,
        height: size.height,
      });
      await expect(frame.getByTestId(`widget-${widgetId}`)).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
      await page.locator("#embed").screenshot({ path: `${SCREENSHOTS}/report-${size.name}-light.png` });
      expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
      await expect(frame.locator("html")).toHaveAttribute("data-color-scheme", "dark");
      await expect(frame.getByTestId(`widget-${widgetId}`)).toHaveAttribute("data-state", "ready");
      await page.waitForTimeout(400);
      await page.locator("#embed").screenshot({ path: `${SCREENSHOTS}/report-${size.name}-dark.png` });
    }
    await page.close();
  });
});

interface Stream {
  origin: string;
  data: { source?: string; type?: string; surface?: string; payload?: Record<string, unknown> };
}
type FrameName = "dashboard" | "report" | "chat";

const streamOf = (page: Page, name: FrameName | "other") =>
  page.evaluate((n) => (window as unknown as { __streams: Record<string, Stream[]> }).__streams[n]!, name);

async function waitInStream(page: Page, name: FrameName, type: string, payload: Record<string, unknown> = {}) {
  await page.waitForFunction(
    ({ name, type, payload }) =>
      (window as unknown as { __streams: Record<string, Stream[]> }).__streams[name]!.some(
        (m) => m.data?.type === type && Object.entries(payload).every(([k, v]) => JSON.stringify(m.data.payload?.[k]) === JSON.stringify(v)),
      ),
    { name, type, payload },
    { timeout: 30_000, polling: 50 },
  );
}

async function act(page: Page, name: FrameName, type: string, payload: unknown): Promise<Record<string, unknown>> {
  const requestId = `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  await page.evaluate(
    ({ name, type, payload, requestId }) => (window as unknown as { __action: (...a: unknown[]) => void }).__action(name, type, payload, requestId),
    {
      name,
      type,
      payload,
      requestId,
    },
  );
  await waitInStream(page, name, "svc:event:action-result", { requestId });
  const results = (await streamOf(page, name)).filter((m) => m.data.type === "svc:event:action-result" && m.data.payload?.requestId === requestId);
  return results[0]!.data.payload!;
}

test("three frames on one page (dashboard, report, chat) keep their own sessions, filters and event streams", async ({ browser }) => {
  const page = await browser.newPage();
  await page.setViewportSize({ width: 1500, height: 760 });
  const { dashboardPublicId } = await getDemoConfig(page.request);
  const trend = await demoReport(page.request, "revenue_trend");
  const url = new URL("/three-frames.html", E2E.hostUrl);
  url.searchParams.set("dashboard", reportUrl(`dashboard/${dashboardPublicId}`, await createSession(page.request, { tenant: "acme-corp" })));
  url.searchParams.set("report", reportUrl(`report/${trend.publicId}`, await createSession(page.request, { tenant: "globex-inc" })));
  url.searchParams.set(
    "chat",
    reportUrl("chat", await generateSession(page.request, { externalId: "cy@acme.example", embedTenantName: "acme-corp", settings: { allowAi: true } })),
  );
  await page.goto(url.toString());

  // Each frame's own ready: its surface, its tenant.
  await waitInStream(page, "dashboard", "svc:event:ready", { surface: "dashboard", embedTenant: "acme-corp" });
  await waitInStream(page, "report", "svc:event:ready", { surface: "report", embedTenant: "globex-inc", publicId: trend.publicId });
  await waitInStream(page, "chat", "svc:event:ready", { surface: "chat" });
  await expect(page.frameLocator("#report").getByTestId("widget-revenue_trend")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  await waitInStream(page, "dashboard", "svc:event:dashboard-loaded");

  // A filter on the report reaches the report alone; another on the dashboard, the dashboard alone.
  expect(await act(page, "report", "svc:action:set-filter", { filterUrlParameter: COMPLETED })).toMatchObject({ status: "applied" });
  await waitInStream(page, "report", "svc:event:filters-changed", { filterUrlParameters: [COMPLETED] });
  const cancelled = 'f_sales.status={"value":["cancelled"]}';
  expect(await act(page, "dashboard", "svc:action:set-filter", { filterUrlParameter: cancelled })).toMatchObject({ status: "applied" });
  await waitInStream(page, "dashboard", "svc:event:filters-changed", { filterUrlParameters: [cancelled] });
  // The chat has no dashboard filters: the action is not one it applies.
  expect((await act(page, "chat", "svc:action:set-filter", { filterUrlParameter: COMPLETED })).status).not.toBe("applied");

  const [dashboard, report, chat, other] = await Promise.all([
    streamOf(page, "dashboard"),
    streamOf(page, "report"),
    streamOf(page, "chat"),
    streamOf(page, "other"),
  ]);
  expect(other).toEqual([]);
  for (const [stream, surface] of [
    [dashboard, "dashboard"],
    [report, "report"],
    [chat, "chat"],
  ] as const) {
    const events = stream.filter((m) => m.data?.source === "svc-embed");
    expect(events.length).toBeGreaterThan(1);
    // Every event of a stream names its own frame's surface and came from the platform's origin; ready came first, once.
    expect(new Set(events.map((m) => m.data.surface))).toEqual(new Set([surface]));
    expect(new Set(events.map((m) => m.origin))).toEqual(new Set([E2E.platformUrl]));
    expect(events[0]!.data.type).toBe("svc:event:ready");
    expect(events.filter((m) => m.data.type === "svc:event:ready")).toHaveLength(1);
  }
  const filterChanges = (stream: Stream[]) => stream.filter((m) => m.data.type === "svc:event:filters-changed").map((m) => m.data.payload!.filterUrlParameters);
  expect(filterChanges(report)).toEqual([[COMPLETED]]);
  expect(filterChanges(dashboard)).toEqual([[cancelled]]);
  expect(filterChanges(chat)).toEqual([]);
  await page.close();
});

test("the demo host's three-frame view shows a dashboard, a report and a chat, each with its own log and filter", async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(`${E2E.demoHostUrl}/?view=trio`);
  const columns = page.locator(".trio-frame");
  await expect(columns).toHaveCount(3, { timeout: 30_000 });
  for (const [i, surface] of ["dashboard", "report", "chat"].entries()) {
    await expect(columns.nth(i).locator(".status")).toContainText(`${surface} · signed`, { timeout: 30_000 });
  }
  await expect(page.frameLocator('iframe[data-frame="report"]').locator('[data-testid^="widget-"][data-state="ready"]')).toHaveCount(1, { timeout: 30_000 });
  // The report's filter button acts on the report alone: its log shows the change, the dashboard's does not.
  await columns.nth(1).getByRole("button", { name: "set-filter" }).click();
  await expect(columns.nth(1).locator(".log .type", { hasText: "← svc:event:filters-changed" })).toHaveCount(1);
  await expect(columns.nth(1).locator(".log")).toContainText('"status":"applied"');
  await expect(columns.nth(0).locator(".log .type", { hasText: "← svc:event:filters-changed" })).toHaveCount(0);
  if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/demo-host-three-frames.png` });
});
