import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { newReportInApp } from "./support/report-builder";
import { requestAction } from "./support/embed-harness";
import { shotsDir } from "./support/shots";

// Screens of the creator app's dashboard editor with the widget inspector open, in light and
// dark, at desktop and phone widths (to $SVC_SHOTS_DIR/dashboard-editor/ with npm run test:shots), and the
// layout facts they show: Publish on the toolbar's one row, the canvas keeping its width under the
// inspector, a resize handle on every widget, Escape closing the inspector.

const DESKTOP = { width: 1200, height: 800 };
const PHONE = { width: 390, height: 844 };
const OUT = shotsDir("dashboard-editor");

async function shoot(page: Page, name: string) {
  if (!OUT) return;
  for (const scheme of ["light", "dark"] as const) {
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme })).status).toBe("applied");
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}/${name}-${scheme}.png`, fullPage: true });
  }
}

async function box(frame: FrameLocator, testId: string) {
  const b = await frame.getByTestId(testId).first().boundingBox();
  if (!b) throw new Error(`${testId} is not on screen`);
  return b;
}

async function expectPublishOnTheToolbarRow(app: FrameLocator) {
  await expect(app.getByTestId("publish")).toBeVisible();
  const [toolbar, publish, undo] = [await box(app, "editor-toolbar"), await box(app, "publish"), await box(app, "undo")];
  // One row: Publish and Undo share a line, and the toolbar is no taller than that line.
  expect(Math.abs(publish.y + publish.height / 2 - (undo.y + undo.height / 2))).toBeLessThan(4);
  expect(toolbar.height).toBeLessThan(publish.height + 16);
  expect(publish.x + publish.width).toBeLessThanOrEqual(toolbar.x + toolbar.width + 1);
}

for (const [width, size] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`dashboard editor with the widget inspector open (${width})`, async ({ page }) => {
    test.setTimeout(150_000);
    const { app, builder } = await newReportInApp(page, size, { workbook: `Editor ${width}`, report: "Revenue by country" });
    await builder.locator('input[data-member="sales.revenue"]').check();
    await builder.getByRole("button", { name: "+ Breakout" }).click();
    await builder.getByRole("combobox", { name: "Breakout 1" }).selectOption("sales.customers_country");
    await app.getByTestId("viz-bar").click();
    await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });

    await app.getByTestId("tab-dashboard").click();
    await expect(app.getByTestId("dashboard-empty")).toBeVisible();
    await expectPublishOnTheToolbarRow(app);
    await shoot(page, `editor-empty-${width}`);

    if (width === "phone") {
      await expect(app.getByTestId("add-chart")).toBeHidden();
      await app.getByTestId("add-menu").click();
      await app.getByTestId("add-menu-chart").click();
      await app.getByTestId("add-menu").click();
      await app.getByTestId("add-menu-text").click();
    } else {
      await app.getByTestId("add-chart").click();
      await app.getByTestId("add-text").click();
    }
    await app.getByTestId("text-markdown").fill("## Revenue by country\nAll completed and open orders.");
    await expect(app.getByTestId("draft-status")).toHaveText("Draft saved", { timeout: 15_000 });
    const chart = app.locator('.svc-app-widget[data-widget-type="CHART"]');
    await expect(chart.locator("[data-state]").first()).toHaveAttribute("data-state", /ready|error/, { timeout: 30_000 });
    for (const widget of await app.locator(".svc-app-widget").all()) await expect(widget.getByRole("img", { name: "Resize" })).toBeVisible();
    await expect(app.locator(".svc-app-widget-bar").first()).toHaveCSS("user-select", "none");

    await chart.getByRole("button", { name: "Configure Chart widget" }).click();
    const inspector = app.getByTestId("widget-inspector");
    await expect(inspector).toBeVisible();
    await expect(app.getByTestId("chart-report")).toBeVisible();
    await expectPublishOnTheToolbarRow(app);
    const [canvas, body] = [await app.locator(".svc-app-canvas").boundingBox(), await app.locator(".svc-app-editor-body").boundingBox()];
    // The inspector lies over the canvas: the canvas keeps the editor's whole width.
    expect(canvas!.width).toBeGreaterThanOrEqual(body!.width * 0.9);
    if (width === "desktop") expect(canvas!.width).toBeGreaterThan(DESKTOP.width * 0.6);
    const sheet = (await inspector.boundingBox())!;
    if (width === "phone") expect(sheet.y + sheet.height).toBeGreaterThan(PHONE.height - 4);
    await page.waitForTimeout(800);
    await shoot(page, `editor-inspector-${width}`);

    // The longest words of a shipped locale still fit: German, inspector open.
    expect((await requestAction(page, "svc:action:set-locale", { locale: "de-DE" })).status).toBe("applied");
    await expect(app.getByTestId("publish")).toHaveText("Veröffentlichen");
    await expectPublishOnTheToolbarRow(app);
    await shoot(page, `editor-inspector-${width}-de`);
    expect((await requestAction(page, "svc:action:set-locale", { locale: "en-US" })).status).toBe("applied");
    await expect(app.getByTestId("publish")).toHaveText("Publish");

    await page.keyboard.press("Escape");
    await expect(inspector).toBeHidden();

    if (width === "desktop") {
      // From the keyboard: the title bar takes focus, Shift+arrow widens the widget, an arrow moves it.
      await chart.getByRole("button", { name: /^Chart: / }).focus();
      await page.keyboard.press("Shift+ArrowRight");
      await expect(app.getByTestId("grid-announcer")).toHaveText(/^Chart resized to \d+ × 5 cells$/);
      await page.keyboard.press("ArrowRight");
      await expect(app.getByTestId("grid-announcer")).toHaveText("Chart moved to column 2, row 1");

      // Into a tab: the chart moves with its report into the new tab container's tab, and out again.
      await app.getByTestId("add-tabs_container").click();
      await expect(app.getByTestId("draft-status")).toHaveText("Draft saved", { timeout: 15_000 });
      // The new container's settings lie over the chart: closed first.
      await page.keyboard.press("Escape");
      await chart.getByRole("button", { name: "Configure Chart widget" }).click();
      await app.getByTestId("place-in-tab").selectOption({ label: "Tabs › Tab 1" });
      const tabs = app.locator('.svc-app-widget[data-widget-type="TABS_CONTAINER"]');
      await expect(tabs.locator(".svc-tabs svg[role='graphics-document'], .svc-tabs [data-state='ready']").first()).toBeVisible({ timeout: 30_000 });
      await expect(app.locator('.svc-app-widget[data-widget-type="CHART"]')).toHaveCount(0);
      await expect(app.getByTestId("tab-contents-tab-1")).toContainText("Revenue by country");
      await expect(app.getByTestId("draft-status")).toHaveText("Draft saved", { timeout: 15_000 });
      // The chart's place is not left empty: the text below it moved up to the top of the grid.
      const text = app.locator('.svc-app-widget[data-widget-type="TEXT"]');
      await expect.poll(() => text.evaluate((e) => Math.round(e.getBoundingClientRect().top - e.parentElement!.getBoundingClientRect().top))).toBe(0);
      await tabs.scrollIntoViewIfNeeded();
      await page.waitForTimeout(500);
      await shoot(page, "editor-tabs-desktop");
      await app.getByTestId("tab-contents-tab-1").getByRole("button", { name: "Move to the dashboard" }).click();
      await expect(app.locator('.svc-app-widget[data-widget-type="CHART"]')).toHaveCount(1);
      await expect(app.getByTestId("tab-contents-tab-1")).toContainText("Nothing in this tab yet");
    }
  });
}
