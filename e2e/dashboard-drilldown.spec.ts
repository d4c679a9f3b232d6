import { expect, test, type Page } from "@playwright/test";
import { mark, openHost, waitForEvent, waitForWidgetsSettled } from "./support/embed-harness";

// Drilldown: a click on a measure (a bar of a chart, a cell of a table) emits `drilldown` with
// the fully-qualified member, the value and the widget, and opens the panel with the rows
// behind it.

async function openDashboard(page: Page) {
  await openHost(page, { params: {} });
  await waitForEvent(page, "svc:event:dashboard-loaded");
  await waitForWidgetsSettled(page);
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
    await openDashboard(page);
    const frame = page.frameLocator("#embed");
    const chart = frame.getByTestId("widget-revenue_by_category");
    await chart.scrollIntoViewIfNeeded();
    const canvas = chart.locator("canvas");
    await expect(canvas).toBeVisible();
    await expect(chart).toHaveAttribute("data-state", "ready");
    const box = (await canvas.boundingBox())!;
    const from = await mark(page);
    // Bars run from the top of the plot; the first (the largest category) is wide. Probe down
    // its band until a click lands on it.
    let event = null;
    for (const y of [0.06, 0.09, 0.12, 0.15]) {
      await canvas.click({ position: { x: box.width * 0.35, y: box.height * y } });
      event = await waitForEvent(page, "svc:event:drilldown", { from, timeout: 1_500 }).catch(() => null);
      if (event) break;
    }
    expect(event, "a click on the first bar emits drilldown").not.toBeNull();
    expect(event!.payload).toMatchObject({ member: "sales.revenue", widgetId: "revenue_by_category" });
    expect(event!.payload.value as number).toBeGreaterThan(0);
    await expectPanelWithRows(page);
  });
});
