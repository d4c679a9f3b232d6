import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import type { DashboardConfig } from "../src/schema/dashboard";
import { newReportInApp } from "./support/report-builder";
import { requestAction } from "./support/embed-harness";

// Undo and redo in the dashboard editor, from the host page: a keyboard move of a chart, adding
// a text widget, a text widget's words; Ctrl+Z, Ctrl+Y and the toolbar's buttons (named in the
// viewer's language); what autosave stores afterwards is the step on screen.

const SIZE = { width: 1440, height: 900 };

const left = async (app: FrameLocator, type: string) => (await app.locator(`.svc-app-widget[data-widget-type="${type}"]`).boundingBox())!.x;

function draftsOf(page: Page) {
  const drafts: DashboardConfig[] = [];
  page.on("request", (r) => {
    if (r.method() === "PUT" && r.url().endsWith("/dashboard/draft")) drafts.push(r.postDataJSON() as DashboardConfig);
  });
  return drafts;
}

test("a creator undoes and redoes moves, added widgets and settings; the draft saved is the step shown", async ({ page }) => {
  test.setTimeout(150_000);
  const drafts = draftsOf(page);
  const { app, builder } = await newReportInApp(page, SIZE, { workbook: "Undo", report: "Revenue by country" });
  await builder.locator('input[data-member="sales.revenue"]').check();
  await builder.getByRole("button", { name: "+ Breakout" }).click();
  await builder.getByRole("combobox", { name: "Breakout 1" }).selectOption("sales.customers_country");
  await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
  await app.getByTestId("tab-dashboard").click();
  const undo = app.getByRole("button", { name: "Undo", exact: true });
  const redo = app.getByRole("button", { name: "Redo", exact: true });
  await expect(undo).toBeDisabled();

  await app.getByTestId("add-chart").click();
  const grip = app.locator('.svc-app-widget[data-widget-type="CHART"] .svc-app-drag');
  const start = await left(app, "CHART");
  // A keyboard move of the chart, undone with Ctrl+Z and redone with Ctrl+Y.
  await grip.press("ArrowRight");
  await expect.poll(() => left(app, "CHART")).toBeGreaterThan(start + 50);
  const moved = await left(app, "CHART");
  await grip.press("Control+z");
  await expect.poll(() => left(app, "CHART")).toBeCloseTo(start, 0);
  await grip.press("Control+y");
  await expect.poll(() => left(app, "CHART")).toBeCloseTo(moved, 0);

  // A text widget and its words: typing is one step.
  await app.getByTestId("add-text").click();
  await app.getByTestId("text-markdown").fill("");
  await app.getByTestId("text-markdown").pressSequentially("Notes", { delay: 50 });
  await expect(app.locator(".svc-app-widget")).toHaveCount(2);
  await undo.click();
  await expect(app.getByTestId("text-markdown")).not.toHaveValue("Notes");
  await undo.click();
  await expect(app.locator(".svc-app-widget")).toHaveCount(1);
  await redo.click();
  await expect(app.locator(".svc-app-widget")).toHaveCount(2);
  await grip.press("Shift+Control+z");
  await expect(app.getByTestId("text-markdown")).toHaveValue("Notes");

  // Back to the chart alone at its first place; what is saved is that step.
  for (let i = 0; i < 3; i++) await grip.press("Control+z");
  await expect(app.locator(".svc-app-widget")).toHaveCount(1);
  await expect.poll(() => left(app, "CHART")).toBeCloseTo(start, 0);
  await expect(app.getByTestId("draft-status")).toHaveText("Draft saved", { timeout: 15_000 });
  const saved = drafts.at(-1)!;
  expect(saved.widgets?.map((w) => [w.type, w.position.x])).toEqual([["CHART", 0]]);

  // The buttons are named in the viewer's language.
  expect((await requestAction(page, "svc:action:set-locale", { locale: "de-DE" })).status).toBe("applied");
  await expect(app.getByRole("button", { name: "Wiederholen" })).toBeEnabled();
  await app.getByRole("button", { name: "Rückgängig" }).click();
  await expect(app.locator(".svc-app-widget")).toHaveCount(0);
  await expect(app.getByRole("button", { name: "Rückgängig" })).toBeDisabled();
});
