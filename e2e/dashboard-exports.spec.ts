import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { embedFrame, eventsOf, mark, openHost, waitForEvent, waitForWidgetsSettled } from "./support/embed-harness";

// Exports behind the `allowExport=true` gate: CSV, XLSX and PNG per widget, PNG and PDF of the
// whole dashboard, each a real browser download and a `download` event that never carries rows.

const DOWNLOAD_KEYS = ["format", "target", "widgetId", "title", "rowCount"];

async function exportAndCheck(page: Page, testId: string, format: string, target: "widget" | "dashboard", widgetId?: string) {
  const frame = page.frameLocator("#embed");
  const from = await mark(page);
  const button = frame.getByTestId(testId);
  await button.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 45_000 }), button.click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`\\.${format}$`));
  const file = readFileSync((await download.path())!);
  const event = await waitForEvent(page, "svc:event:download", { from, timeout: 45_000 });
  expect(event.payload).toMatchObject({ format, target, ...(widgetId ? { widgetId } : {}) });
  // The event says what was exported, never the data itself.
  for (const key of Object.keys(event.payload)) expect(DOWNLOAD_KEYS).toContain(key);
  expect(JSON.stringify(event.payload).length).toBeLessThan(300);
  return { file, event };
}

test.describe("exports with allowExport=true", () => {
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    page = await browser.newPage({ acceptDownloads: true });
    await openHost(page, { params: { allowExport: "true" } });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    await waitForWidgetsSettled(page);
  });

  test.afterAll(async () => {
    await page.close();
  });

  test("CSV of a table holds its rows; the event carries the row count only", async () => {
    const { file, event } = await exportAndCheck(page, "export-csv-top_cities", "csv", "widget", "top_cities");
    const text = file.toString("utf8").replace(/^\ufeff/, "");
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/City/);
    expect(lines.length - 1).toBe(event.payload.rowCount);
    expect(event.payload.rowCount).toBeGreaterThan(5);
    expect(JSON.stringify(event.payload)).not.toContain("New York");
  });

  test("XLSX of a table is a spreadsheet file", async () => {
    const { file, event } = await exportAndCheck(page, "export-xlsx-top_cities", "xlsx", "widget", "top_cities");
    expect(file.subarray(0, 2).toString("latin1")).toBe("PK");
    expect(event.payload.rowCount).toBeGreaterThan(5);
  });

  test("PNG of a chart widget", async () => {
    const { file, event } = await exportAndCheck(page, "export-png-revenue_trend", "png", "widget", "revenue_trend");
    expect(file.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(event.payload).not.toHaveProperty("rowCount");
  });

  test("PNG of an HTML report widget shows the report, not an empty card", async () => {
    const { file } = await exportAndCheck(page, "export-png-highlights", "png", "widget", "highlights");
    // Dark pixels below the card's header: the report's figures (its sandboxed frame is drawn
    // into the capture; a plain DOM capture would leave that area blank).
    const darkBelowHeader = await page.evaluate(async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext("2d")!;
      context.drawImage(image, 0, 0);
      const top = Math.round(image.naturalHeight * 0.25);
      const { data } = context.getImageData(0, top, image.naturalWidth, image.naturalHeight - top);
      let dark = 0;
      for (let p = 0; p < data.length; p += 4) if (data[p]! + data[p + 1]! + data[p + 2]! < 200) dark++;
      return dark;
    }, file.toString("base64"));
    expect(darkBelowHeader).toBeGreaterThan(300);
  });

  test("PNG and PDF of the whole dashboard", async () => {
    // While the picture is taken nothing scrolls: the table's scroll bar is not drawn in it.
    await embedFrame(page).evaluate(() => {
      const seen: string[] = ((window as unknown as { __scrollbars: string[] }).__scrollbars = []);
      new MutationObserver((records) => {
        for (const r of records)
          if ((r.target as HTMLElement).dataset.exporting) seen.push(getComputedStyle(document.querySelector(".svc-table-scroll")!).scrollbarWidth);
      }).observe(document.body, { attributes: true, subtree: true, attributeFilter: ["data-exporting"] });
    });
    const png = await exportAndCheck(page, "export-png-dashboard", "png", "dashboard");
    expect(await embedFrame(page).evaluate(() => (window as unknown as { __scrollbars: string[] }).__scrollbars)).toEqual(["none"]);
    expect(await embedFrame(page).evaluate(() => getComputedStyle(document.querySelector(".svc-table-scroll")!).scrollbarWidth)).not.toBe("none");
    expect(png.file.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.file.length).toBeGreaterThan(20_000);
    const pdf = await exportAndCheck(page, "export-pdf-dashboard", "pdf", "dashboard");
    expect(pdf.file.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.event.payload.title).toBe("Sales overview");
  });
});

test.describe("exports without the gate", () => {
  for (const [label, params] of [
    ["no allowExport", {}],
    ["allowExport=TRUE (only the literal true opens the gate)", { allowExport: "TRUE" }],
  ] as const) {
    test(`${label}: no export controls at all`, async ({ page }) => {
      await openHost(page, { params: { ...params } });
      await waitForEvent(page, "svc:event:dashboard-loaded");
      await waitForWidgetsSettled(page);
      const frame = page.frameLocator("#embed");
      await expect(frame.getByTestId("widget-top_cities")).toHaveAttribute("data-state", "ready");
      await frame.getByTestId("widget-top_cities").hover();
      await expect(frame.locator('[data-testid^="export-"]')).toHaveCount(0);
      expect(await eventsOf(page, "svc:event:download")).toHaveLength(0);
    });
  }
});
