import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { eventsOf, mark, openHost, requestAction, waitForEvent, waitForWidgetsSettled } from "./support/embed-harness";

// Filters reach the demo dashboard three ways (decisions.md "Embed URL parameters", the
// `set-filter` action, a FILTER control); each changes the numbers the widgets show. The
// embed runs on the platform origin inside host.html on the allowed host origin.

const kpi = (page: Page, id: string) => page.frameLocator("#embed").getByTestId(`widget-${id}`).locator(".svc-kpi-value");

/** The Orders KPI's number, once its widget is ready. */
async function ordersKpi(page: Page): Promise<number> {
  const frame = page.frameLocator("#embed");
  await expect(frame.getByTestId("widget-kpi_orders")).toHaveAttribute("data-state", "ready");
  const text = (await kpi(page, "kpi_orders").textContent()) ?? "";
  return Number(text.replace(/[^\d]/g, ""));
}

const queryRequests = (page: Page) => {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(`${E2E.platformUrl}/api/v1/deployments/`) && request.url().endsWith("/query")) seen.push(request.postData() ?? "");
  });
  return seen;
};

test.describe("dashboard filters", () => {
  let unfilteredOrders = 0;

  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage();
    await openHost(page, { params: {} });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    unfilteredOrders = await ordersKpi(page);
    expect(unfilteredOrders).toBeGreaterThan(0);
    await page.close();
  });

  test("an f_ parameter in the embed URL filters the widgets from the first load", async ({ page }) => {
    await openHost(page, { params: { "f_sales.status": JSON.stringify({ value: ["cancelled"] }) } });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const filtered = await ordersKpi(page);
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(unfilteredOrders);
    // The control shows the URL's selection.
    await expect(page.frameLocator("#embed").getByTestId("widget-filter_status").locator(".svc-picker-summary")).toHaveText(/cancelled/);
  });

  test("picking a value in a FILTER control re-runs the widgets and emits filters-changed", async ({ page }) => {
    const requests = queryRequests(page);
    await openHost(page, { params: {} });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    await waitForWidgetsSettled(page);
    const from = await mark(page);
    const before = requests.length;
    const frame = page.frameLocator("#embed");
    await frame.getByTestId("widget-filter_status").locator(".svc-picker-button").click();
    await frame.locator(".svc-option", { hasText: "cancelled" }).click();
    const changed = await waitForEvent(page, "svc:event:filters-changed", { from });
    expect(changed.payload.filterUrlParameters).toEqual(['f_sales.status={"value":"cancelled"}']);
    await expect.poll(() => ordersKpi(page)).toBeLessThan(unfilteredOrders);
    // Every chart of the `sales` view ran again, with the filter in its query.
    const rerun = requests.slice(before);
    expect(rerun.length).toBeGreaterThanOrEqual(8);
    expect(rerun.every((body) => body.includes('"member":"sales.status"') && body.includes("cancelled"))).toBe(true);
  });

  test("set-filter from the host applies a filter with a control and ignores one without", async ({ page }) => {
    await openHost(page, { params: {} });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const from = await mark(page);
    const applied = await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.customers_country={"value":["CA"]}' });
    expect(applied.status).toBe("applied");
    const changed = await waitForEvent(page, "svc:event:filters-changed", { from });
    expect(changed.payload.filterUrlParameters).toEqual(['f_sales.customers_country={"value":["CA"]}']);
    await expect.poll(() => ordersKpi(page)).toBeLessThan(unfilteredOrders);
    const filteredOrders = await ordersKpi(page);

    const ignored = await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.products_category={"value":["Books"]}' });
    expect(ignored.status).toBe("ignored");
    expect(await ordersKpi(page)).toBe(filteredOrders);

    // Clearing it brings the unfiltered numbers back.
    expect((await requestAction(page, "svc:action:set-filter", { filterUrlParameter: "f_sales.customers_country=null" })).status).toBe("applied");
    await expect.poll(() => ordersKpi(page)).toBe(unfilteredOrders);
    const all = await eventsOf(page, "svc:event:filters-changed");
    expect(all.at(-1)?.payload.filterUrlParameters).toEqual([]);
  });
});
