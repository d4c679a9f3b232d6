import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { eventsOf, requestAction } from "./support/embed-harness";
import { newReportInApp } from "./support/report-builder";
import { shotsDir } from "./support/shots";

// The report builder with a filter still being made: it is marked incomplete and left out, so the
// preview keeps its answer, the host hears of no error and nothing is saved; finished, it filters
// the preview and is saved; a value of the preview drills through. The operator and time choices
// stay inside the panel at desktop and phone widths. Screens in light and dark go to $SVC_SHOTS_DIR/report-drafts/ (npm run test:shots).

const DESKTOP = { width: 1200, height: 800 };
const PHONE = { width: 390, height: 844 };
const OUT = shotsDir("report-drafts");

async function shoot(page: Page, name: string) {
  if (!OUT) return;
  for (const scheme of ["light", "dark"] as const) {
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme })).status).toBe("applied");
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}/${name}-${scheme}.png`, fullPage: true });
  }
}

/** Every field of the query panel ends inside it (nothing is cut off at its right edge). */
async function expectInsidePanel(app: FrameLocator, name = "Query") {
  const panel = await app.getByRole("complementary", { name }).boundingBox();
  expect(panel).not.toBeNull();
  const fields = app.getByRole("complementary", { name }).locator("select, input:not([type=checkbox])");
  for (let i = 0; i < (await fields.count()); i++) {
    const box = await fields.nth(i).boundingBox();
    if (!box) continue;
    expect(box.x + box.width, `field ${i} ends inside the panel`).toBeLessThanOrEqual(panel!.x + panel!.width + 0.5);
  }
}

for (const [width, size] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`report builder: a half-made filter is left out, not an error, not saved (${width})`, async ({ page }) => {
    test.setTimeout(150_000);
    const { app, builder, result, saves, queries } = await newReportInApp(page, size, { workbook: `Drafts ${width}`, report: "Orders by month" });
    await builder.locator('input[data-member="sales.count"]').check();
    await app.getByTestId("time-dimension").selectOption("sales.created_at");
    await app.getByTestId("time-grouping").selectOption("granularity:quarter");
    await expect(result.locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
    await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
    const savedBefore = saves.length;

    // A filter added and not finished: on screen, marked, and nowhere else.
    await builder.getByRole("button", { name: "+ Filter" }).click();
    const filter = app.getByTestId("filter-row").last();
    await filter.getByRole("combobox", { name: "Filter member" }).selectOption("sales.amount");
    await filter.getByRole("combobox", { name: "Operator" }).selectOption("between");
    await filter.getByTestId("filter-low").fill("20");
    await filter.getByTestId("filter-low").blur();
    await expect(filter.getByTestId("filter-incomplete")).toHaveText("incomplete — left out");
    await page.waitForTimeout(2000);
    expect(await eventsOf(page, "svc:event:error")).toEqual([]);
    expect(saves.length).toBe(savedBefore);
    for (const q of queries) expect(q.postData() ?? "").not.toContain("sales.amount");
    await expect(result.locator('[data-state="ready"]')).toBeVisible();
    await expect(app.getByTestId("save-status")).toHaveText("Saved");
    await expectInsidePanel(app);
    await filter.scrollIntoViewIfNeeded();
    await shoot(page, `drafts-incomplete-${width}`);

    // Finished: the preview runs with it and it is saved.
    const ranBefore = queries.length;
    await filter.getByTestId("filter-high").fill("200");
    await filter.getByTestId("filter-high").blur();
    await expect(filter.getByTestId("filter-incomplete")).toHaveCount(0);
    await expect.poll(() => queries.slice(ranBefore).some((q) => (q.postData() ?? "").includes('"sales.amount"'))).toBe(true);
    await expect(result.locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => saves.slice(savedBefore).some((r) => (r.postData() ?? "").includes('"values":[20,200]'))).toBe(true);
    await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
    expect(await eventsOf(page, "svc:event:error")).toEqual([]);

    // Dates: "on or before" a date, and a custom range waiting for its end.
    await builder.getByRole("button", { name: "+ Filter" }).click();
    const dateFilter = app.getByTestId("filter-row").last();
    await dateFilter.getByRole("combobox", { name: "Filter member" }).selectOption("sales.created_at");
    await dateFilter.getByRole("combobox", { name: "Operator" }).selectOption("beforeOrOnDate");
    await expect(dateFilter.getByRole("combobox", { name: "Operator" }).locator("option:checked")).toHaveText("on or before");
    // Dates are typed as the viewer's locale writes them (en-US here).
    await dateFilter.getByTestId("filter-date").fill("06/30/2025");
    await dateFilter.getByTestId("filter-date").press("Enter");
    await expect(dateFilter.getByTestId("filter-incomplete")).toHaveCount(0);
    await app.getByTestId("time-range").selectOption("custom");
    await app.getByTestId("time-range-start").fill("01/01/2025");
    await app.getByTestId("time-range-start").press("Enter");
    await expect(app.getByTestId("time-range").locator("option:checked")).toHaveText("Custom range");
    await expect(app.getByTestId("time-range-incomplete")).toHaveText("incomplete — left out");
    await page.waitForTimeout(1500);
    expect(await eventsOf(page, "svc:event:error")).toEqual([]);
    await expectInsidePanel(app);
    await app.getByTestId("time-range").scrollIntoViewIfNeeded();
    await shoot(page, `drafts-dates-${width}`);
    await app.getByTestId("time-range-end").fill("12/31/2025");
    await app.getByTestId("time-range-end").press("Enter");
    await expect.poll(() => queries.some((q) => (q.postData() ?? "").includes('"dateRange":["2025-01-01","2025-12-31"]'))).toBe(true);
    await expect(app.getByTestId("time-range-incomplete")).toHaveCount(0);
    await expect(result.locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
    await shoot(page, `drafts-complete-${width}`);
    expect(await eventsOf(page, "svc:event:error")).toEqual([]);

    // A value of the preview drills through as on a dashboard: its rows, then its quarter by month.
    await app.getByTestId("viz-table").click();
    await result.locator(".svc-table-body .svc-drill-button").first().click();
    const drill = app.getByTestId("drilldown-panel");
    await expect(drill).toHaveAttribute("data-state", "ready");
    await drill.getByTestId("drill-over-time").click();
    await expect(drill).toHaveAttribute("data-step", "time");
    await expect(drill).toHaveAttribute("data-state", "ready");
    await expect(drill.getByTestId("drill-breakdown").locator(".svc-table-body .svc-table-row")).toHaveCount(3);
    expect((await eventsOf(page, "svc:event:drilldown")).length).toBe(2);
    await page.keyboard.press("Escape");
    await expect(drill).toHaveCount(0);

    // In German the longer words stay inside the panel too, and a new filter is marked in German.
    expect((await requestAction(page, "svc:action:set-locale", { locale: "de-DE" })).status).toBe("applied");
    await builder.getByRole("button", { name: "+ Filter hinzufügen" }).click();
    await expect(app.getByTestId("filter-row").last().getByTestId("filter-incomplete")).toHaveText("unvollständig – nicht angewendet");
    await expect(app.getByTestId("time-range").locator("option:checked")).toHaveText("Eigener Zeitraum");
    await expectInsidePanel(app, "Abfrage");
    await app.getByTestId("filter-row").last().scrollIntoViewIfNeeded();
    await shoot(page, `drafts-de-${width}`);
    expect(await eventsOf(page, "svc:event:error")).toEqual([]);
  });
}
