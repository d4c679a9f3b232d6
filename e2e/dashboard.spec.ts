import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectEventEnvelope, mark, openHost, requestAction, waitForEvent } from "./support/embed-harness";

test.describe("dashboard events from viewer interaction", () => {
  test("with allowExport=true a widget CSV export downloads the rows and emits download without them", async ({ page }) => {
    await openHost(page, { params: { allowExport: "true" } });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const frame = page.frameLocator("#embed");
    const widget = frame.getByTestId("widget-top_cities");
    await expect(widget).toHaveAttribute("data-state", "ready");
    for (const format of ["csv", "xlsx", "png"]) await expect(frame.getByTestId(`export-${format}-top_cities`)).toBeVisible();
    await expect(frame.getByTestId("export-png-dashboard")).toBeVisible();
    await expect(frame.getByTestId("export-pdf-dashboard")).toBeVisible();

    const from = await mark(page);
    const downloadPromise = page.waitForEvent("download");
    await frame.getByTestId("export-csv-top_cities").click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync((await download.path())!, "utf8").replace(/^\ufeff/, "");
    const lines = csv.trim().split(/\r?\n/);
    expect(lines.length).toBeGreaterThan(1);

    const event = await waitForEvent(page, "svc:event:download", { from });
    expectEventEnvelope(event, "svc:event:download");
    expect(event.payload).toMatchObject({ format: "csv", target: "widget", widgetId: "top_cities", rowCount: lines.length - 1 });
    // The event describes the export; the data stays in the iframe.
    for (const key of Object.keys(event.payload)) expect(["format", "target", "widgetId", "title", "rowCount"]).toContain(key);
    expect(JSON.stringify(event.payload)).not.toContain(lines[1]!.split(",")[0]!.replace(/"/g, ""));
  });

  test("without allowExport (or with anything but the literal true) there are no export controls", async ({ page }) => {
    for (const params of [{}, { allowExport: "1" }] as Array<Record<string, string>>) {
      await openHost(page, { params });
      await waitForEvent(page, "svc:event:dashboard-loaded");
      const frame = page.frameLocator("#embed");
      await expect(frame.getByTestId("widget-top_cities")).toHaveAttribute("data-state", "ready");
      await expect(frame.getByTestId("widget-kpi_revenue")).toHaveAttribute("data-state", "ready");
      await expect(frame.locator('[data-testid^="export-"]')).toHaveCount(0);
    }
  });

  test("clicking a measure cell drills down: drilldown event and the detail panel", async ({ page }) => {
    await openHost(page);
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const frame = page.frameLocator("#embed");
    const table = frame.getByTestId("widget-top_cities");
    await expect(table).toHaveAttribute("data-state", "ready");
    const from = await mark(page);
    await table.locator(".svc-drill-button").first().click();
    const drill = await waitForEvent(page, "svc:event:drilldown", { from });
    expectEventEnvelope(drill, "svc:event:drilldown");
    expect(drill.payload.widgetId).toBe("top_cities");
    expect(drill.payload.member).toMatch(/^sales\.[a-z_]+$/);
    expect(drill.payload).toHaveProperty("value");
    const panel = frame.getByTestId("drilldown-panel");
    await expect(panel).toBeVisible();
    await expect(panel).toHaveAttribute("data-state", "ready");
  });

  test("clicking a bar drills down from the chart", async ({ page }) => {
    await openHost(page, { autosize: true });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const frame = page.frameLocator("#embed");
    const chart = frame.getByTestId("widget-revenue_by_category");
    await expect(chart).toHaveAttribute("data-state", "ready");
    // Charts off screen draw when scrolled to.
    await chart.scrollIntoViewIfNeeded();
    // The drawing (SVG from the chart worker) is in the chart's area once rendered.
    const canvas = chart.locator(".svc-chart-canvas svg").first();
    await expect(canvas).toBeVisible();
    const from = await mark(page);
    // One click on the middle of the first bar (a bar mark of the drawn SVG): a click that misses
    // and a second one would land on the opened panel's backdrop and close it again.
    await canvas.locator(".mark-rect path").first().click();
    const hit = await waitForEvent(page, "svc:event:drilldown", { from }).then(
      () => true,
      () => false,
    );
    expect(hit).toBe(true);
    const drill = await waitForEvent(page, "svc:event:drilldown", { from });
    expect(drill.payload).toMatchObject({ widgetId: "revenue_by_category", member: "sales.revenue" });
    await expect(frame.getByTestId("drilldown-panel")).toBeVisible();
  });

  test("a widget whose query fails shows its error state and emits a non-fatal error", async ({ page }) => {
    await openHost(page);
    await waitForEvent(page, "svc:event:dashboard-loaded");
    const frame = page.frameLocator("#embed");
    const from = await mark(page);
    // Accepted by the embed (there is a date control), refused by the server: not dates.
    const result = await requestAction(page, "svc:action:set-filter", {
      filterUrlParameter: 'f_sales.created_at={"operator":"between","value":["yesterday","tomorrow"]}',
    });
    expect(result.status).toBe("applied");
    const error = await waitForEvent(page, "svc:event:error", { from });
    expectEventEnvelope(error, "svc:event:error");
    expect(error.payload).toMatchObject({ fatal: false });
    expect(typeof error.payload.message).toBe("string");
    expect(error.payload.context).toMatch(/^widget:/);
    const widgetId = (error.payload.context as string).slice("widget:".length);
    await expect(frame.getByTestId(`widget-${widgetId}`)).toHaveAttribute("data-state", "error");
    // The surface survives: clearing the filter brings the widget back.
    expect((await requestAction(page, "svc:action:set-filter", { filterUrlParameter: "f_sales.created_at=null" })).status).toBe("applied");
    await expect(frame.getByTestId(`widget-${widgetId}`)).toHaveAttribute("data-state", "ready");
  });
});
