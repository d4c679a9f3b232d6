import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, dashboardUrl, getDemoConfig, mark, openHost, requestAction, waitForEvent, waitForWidgetsSettled } from "./support/embed-harness";
import { shotsDir } from "./support/shots";

// Drilldown: a click on a measure (a bar of a chart, a cell of a table) emits `drilldown` with
// the fully-qualified member, the value and the widget, and opens the panel with the rows
// behind it; from there the value is broken out by another dimension or over time, a value of
// those opens its rows, and the breadcrumb goes back.

const OUT = shotsDir("drill");

/** Under `npm run test:shots`: the panel in light and dark, at the page's width and a phone's. */
async function shoot(page: Page, name: string) {
  if (!OUT) return;
  const size = page.viewportSize()!;
  for (const [width, viewport] of [
    ["desktop", size],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    // The host page's frame is 1200 px wide: as wide as the phone's screen for the phone's pictures.
    await page.evaluate((w) => void ((document.getElementById("embed") as HTMLIFrameElement).style.width = `${w}px`), viewport.width);
    await page.waitForTimeout(300);
    for (const scheme of ["light", "dark"] as const) {
      expect((await requestAction(page, "svc:action:set-color-scheme", { scheme })).status).toBe("applied");
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${OUT}/${name}-${width}-${scheme}.png` });
    }
  }
  await page.setViewportSize(size);
  await page.evaluate(() => void (document.getElementById("embed") as HTMLIFrameElement).style.removeProperty("width"));
  expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "light" })).status).toBe("applied");
}

async function openDashboard(page: Page) {
  await openHost(page, { params: {} });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  await waitForWidgetsSettled(page);
}

const auth = { authorization: `Bearer ${E2E.adminToken}` };

async function api<T>(request: APIRequestContext, method: string, path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`${E2E.platformUrl}${path}`, { method, headers: auth, ...(data === undefined ? {} : { data }) });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** A dashboard (built through the API) with the demo's "Revenue by category" bar chart as its only widget. */
async function barChartDashboard(request: APIRequestContext): Promise<string> {
  const { deploymentId } = await getDemoConfig(request);
  const reports = await api<{ items: { id: number; name: string }[] }>(request, "GET", `/api/v1/deployments/${deploymentId}/reports?first=100`);
  const bars = reports.items.find((r) => r.name === "revenue_by_category")!;
  const base = `/api/v1/deployments/${deploymentId}`;
  const workbook = await api<{ id: number }>(request, "PUT", `${base}/workbooks/by-slug/e2e-drilldown-bars`, {
    name: "Drilldown bars",
    meta: {
      dashboardDraft: {
        title: "Drilldown bars",
        widgets: [{ id: "bars", type: "CHART", position: { x: 0, y: 0, w: 8, h: 6 }, config: { reportId: bars.id } }],
      },
    },
  });
  const dashboard = await api<{ publicId: string }>(request, "POST", `${base}/workbooks/${workbook.id}/dashboard/publish`);
  await api(request, "PUT", `${base}/workbooks/${workbook.id}/embed-access`, { rules: [{ embedTenantName: null, action: "read" }] });
  await api(request, "PATCH", `/api/v1/embed/dashboard/${dashboard.publicId}`, { allowEmbed: true });
  return dashboard.publicId;
}

async function expectPanelWithRows(page: Page) {
  const panel = page.frameLocator("#embed").getByTestId("drilldown-panel");
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute("data-state", "ready");
  await expect(panel.locator(".svc-table-body .svc-table-row").first()).toBeVisible();
}

test.describe("drilldown", () => {
  test("clicking a table cell emits drilldown and opens the rows panel", async ({ page }) => {
    await openDashboard(page);
    const frame = page.frameLocator("#embed");
    const table = frame.getByTestId("widget-top_cities");
    await table.scrollIntoViewIfNeeded();
    const from = await mark(page);
    const cell = table.locator(".svc-table-body .svc-drill-button").first();
    const shown = (await cell.textContent()) ?? "";
    await cell.click();
    const event = await waitForEvent(page, "svc:event:drilldown", { from });
    expect(event.payload).toMatchObject({ member: "sales.revenue", widgetId: "top_cities" });
    expect(typeof event.payload.value).toBe("number");
    // The value is the cell's number, not its formatted text.
    expect(shown.replace(/[^\d]/g, "")).toBe(String(Math.round(event.payload.value as number)));
    await expectPanelWithRows(page);
  });

  test("clicking a bar of a chart emits drilldown with the bar's measure and value", async ({ page }) => {
    const publicId = await barChartDashboard(page.request);
    await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(dashboardUrl(publicId, await createSession(page.request)))}`);
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const frame = page.frameLocator("#embed");
    const chart = frame.getByTestId("widget-bars");
    await chart.scrollIntoViewIfNeeded();
    // The drawing (SVG from the chart worker) in the chart's area.
    const canvas = chart.locator(".svc-chart-canvas svg");
    await expect(canvas).toBeVisible();
    await expect(chart).toHaveAttribute("data-state", "ready");
    const box = (await canvas.boundingBox())!;
    const from = await mark(page);
    // Bars run from the top of the plot; the first (the largest category) is wide. Probe down
    // its band until a click lands on it.
    let event = null;
    for (const y of [0.05, 0.07, 0.09, 0.11, 0.13, 0.16, 0.2]) {
      await canvas.click({ position: { x: box.width * 0.35, y: box.height * y } });
      event = await waitForEvent(page, "svc:event:drilldown", { from, timeout: 1_500 }).catch(() => null);
      if (event) break;
    }
    expect(event, "a click on the first bar emits drilldown").not.toBeNull();
    expect(event!.payload).toMatchObject({ member: "sales.revenue", widgetId: "bars" });
    expect(event!.payload.value as number).toBeGreaterThan(0);
    await expectPanelWithRows(page);
  });

  test("drills through: by another dimension, over time, a value's rows, back along the breadcrumb, and filters the dashboard to the slice", async ({
    page,
  }) => {
    await openDashboard(page);
    const frame = page.frameLocator("#embed");
    const table = frame.getByTestId("widget-top_cities");
    await table.scrollIntoViewIfNeeded();
    await table.locator(".svc-table-body .svc-drill-button").first().click();
    await expectPanelWithRows(page);
    const panel = frame.getByTestId("drilldown-panel");
    const city = (await panel.getByTestId("drilldown-context").locator(".svc-drawer-chip").first().textContent()) ?? "";
    expect(city).toMatch(/: \S/);

    // By status: one row per status of this city's revenue, reported to the host.
    let from = await mark(page);
    await panel.getByTestId("drill-by-sales.status").click();
    await expect(panel).toHaveAttribute("data-step", "breakout");
    await expect(panel).toHaveAttribute("data-state", "ready");
    await expect(panel.getByRole("heading", { level: 2 })).toContainText(/Revenue · By Status/i);
    const statuses = panel.getByTestId("drill-breakdown").locator(".svc-table-body .svc-table-row");
    await expect(statuses.first()).toBeVisible();
    expect(await statuses.count()).toBeGreaterThan(1);
    // Charted above the table: a bar per status.
    await expect(panel.getByTestId("drill-chart").locator("svg")).toBeVisible();
    expect((await waitForEvent(page, "svc:event:drilldown", { from })).payload).toMatchObject({ member: "sales.revenue", widgetId: "top_cities" });
    await shoot(page, "by-status");

    // A status's figure opens its rows: every row has that status.
    const status = (await statuses.first().locator(".svc-table-cell").first().textContent())!.trim();
    from = await mark(page);
    await statuses.first().locator(".svc-drill-button").click();
    await expect(panel).toHaveAttribute("data-step", "rows");
    await expect(panel).toHaveAttribute("data-state", "ready");
    expect((await waitForEvent(page, "svc:event:drilldown", { from })).payload).toMatchObject({ member: "sales.revenue", widgetId: "top_cities" });
    const trail = panel.getByTestId("drill-trail");
    await expect(trail.locator("li")).toHaveText(["Rows", "By Status", status]);
    const statusColumn = await panel.locator(".svc-table-head [role=columnheader]").allTextContents();
    const at = statusColumn.findIndex((h) => /status/i.test(h));
    expect(at).toBeGreaterThanOrEqual(0);
    const shown = await panel.locator(`.svc-table-body .svc-table-row .svc-table-cell:nth-child(${at + 1})`).allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    expect(new Set(shown.map((s) => s.trim()))).toEqual(new Set([status]));

    // Back to the first rows, then over time: the city's revenue by month.
    await trail.getByRole("button", { name: "Rows" }).click();
    await expect(panel).toHaveAttribute("data-step", "rows");
    await expect(panel.getByTestId("drill-trail")).toHaveCount(0);
    await panel.getByTestId("drill-over-time").click();
    await expect(panel).toHaveAttribute("data-step", "time");
    await expect(panel).toHaveAttribute("data-state", "ready");
    const months = panel.getByTestId("drill-breakdown").locator(".svc-table-body .svc-table-row");
    expect(await months.count()).toBeGreaterThan(2);
    await expect(panel.getByTestId("drill-trail").locator("li")).toHaveText(["Rows", "Over time by Month"]);
    await shoot(page, "over-time");

    // A point of the line opens that month's rows, as its row of the table does.
    const chart = panel.getByTestId("drill-chart");
    const points = chart.locator("svg [aria-roledescription='point'], svg path.mark-symbol path, svg .mark-symbol path");
    await expect(points.first()).toBeVisible();
    await points.last().click({ force: true });
    await expect(panel).toHaveAttribute("data-step", "rows");
    // The last point is the data's last month, June 2025 (the table draws only the rows in view).
    await expect(panel.getByTestId("drill-trail").locator("li")).toHaveText(["Rows", "Over time by Month", "Jun 2025"]);
    await panel.getByTestId("drill-trail").getByRole("button", { name: "Over time by Month" }).click();
    await expect(panel).toHaveAttribute("data-step", "time");

    // Back again, then the dashboard filtered to the city's country (it has a country filter, no city one).
    await panel.getByTestId("drill-trail").getByRole("button", { name: "Rows" }).click();
    from = await mark(page);
    await expect(panel.getByTestId("drill-filter-dashboard")).toHaveText(/^Filter the dashboard: Country: /);
    await panel.getByTestId("drill-filter-dashboard").click();
    await expect(panel).toHaveCount(0);
    const changed = await waitForEvent(page, "svc:event:filters-changed", { from });
    expect((changed.payload as { filterUrlParameters: string[] }).filterUrlParameters.join(" ")).toMatch(/^f_sales\.customers_country=/);
  });
});
