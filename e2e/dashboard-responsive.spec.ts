import { expect, test, type Page } from "@playwright/test";
import type { DashboardConfig } from "../src/schema/dashboard";
import { newReportInApp } from "./support/report-builder";
import { requestAction } from "./support/embed-harness";
import { shotsDir } from "./support/shots";

// The dashboard editor's responsive preview, from the host page at desktop and phone widths: the
// canvas at the tablet breakpoint's width shows the derived layout read-only, "Arrange for Tablet"
// makes it the tablet's own, a keyboard move there changes only the tablet layout (saved with the
// draft), and "Use the derived layout" drops it. Screens in light and dark (SVC_SHOTS_DIR).

const OUT = shotsDir("dashboard-responsive");

async function shoot(page: Page, name: string) {
  if (!OUT) return;
  for (const scheme of ["light", "dark"] as const) {
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme })).status).toBe("applied");
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}/${name}-${scheme}.png` });
  }
}

for (const [name, size] of [
  ["desktop", { width: 1440, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`a creator previews the dashboard at tablet width and arranges it for tablets (${name})`, async ({ page }) => {
    test.setTimeout(150_000);
    const drafts: DashboardConfig[] = [];
    page.on("request", (r) => {
      if (r.method() === "PUT" && r.url().endsWith("/dashboard/draft")) drafts.push(r.postDataJSON() as DashboardConfig);
    });
    const { app, builder } = await newReportInApp(page, size, { workbook: `Responsive ${name}`, report: "Revenue by country" });
    await builder.locator('input[data-member="sales.revenue"]').check();
    await builder.getByRole("button", { name: "+ Breakout" }).click();
    await builder.getByRole("combobox", { name: "Breakout 1" }).selectOption("sales.customers_country");
    await app.getByTestId("viz-bar").click();
    await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
    await app.getByTestId("tab-dashboard").click();
    for (const type of ["chart", "text"]) {
      if (name === "phone") {
        await app.getByTestId("add-menu").click();
        await app.getByTestId(`add-menu-${type}`).click();
      } else await app.getByTestId(`add-${type}`).click();
    }
    await app.getByTestId("text-markdown").fill("## Revenue\nBy country, all orders.");
    await app.getByTestId("widget-inspector").press("Escape");
    await expect(app.getByTestId("widget-inspector")).toBeHidden();
    const chart = app.locator('.svc-app-widget[data-widget-type="CHART"]');
    await expect(chart.locator("[data-state]").first()).toHaveAttribute("data-state", /ready/, { timeout: 30_000 });

    // Tablet: the derived layout at 769 px, read-only.
    await app.getByRole("button", { name: "Tablet" }).click();
    const grid = app.locator(".svc-app-canvas .svc-grid").first();
    await expect(grid).toHaveAttribute("data-breakpoint", "sm");
    expect(Math.round((await grid.boundingBox())!.width)).toBe(769);
    await expect(app.getByTestId("layout-notice")).toContainText("worked out from the desktop one");
    await expect(app.locator(".svc-app-widget-bar")).toHaveCount(0);
    await expect(chart.locator("svg, canvas").first()).toBeVisible({ timeout: 30_000 });
    await shoot(page, `responsive-derived-${name}`);

    // Arranged for tablets: editable; a keyboard move changes the tablet layout only.
    await app.getByRole("button", { name: "Arrange for Tablet" }).click();
    await expect(app.getByTestId("layout-notice")).toHaveAttribute("data-own", "true");
    const grip = chart.locator(".svc-app-drag");
    await grip.press("ArrowDown");
    await expect(app.getByTestId("grid-announcer")).toContainText("row 2");
    await expect.poll(() => drafts.at(-1)?.widgets?.find((w) => w.type === "CHART")?.responsiveLayouts?.sm?.y, { timeout: 15_000 }).toBe(1);
    const saved = drafts.at(-1)!.widgets!.find((w) => w.type === "CHART")!;
    expect(saved.position.y).toBe(0);
    await shoot(page, `responsive-own-${name}`);

    // Desktop keeps its layout; back at Tablet, the derived layout again.
    await app.getByRole("button", { name: "Desktop" }).click();
    await expect(grid).toHaveAttribute("data-breakpoint", "lg");
    await expect(app.getByTestId("layout-notice")).toHaveCount(0);
    await app.getByRole("button", { name: "Tablet" }).click();
    await app.getByRole("button", { name: "Use the derived layout" }).click();
    await expect(app.getByTestId("layout-notice")).toHaveAttribute("data-own", "false");
    // "Draft saved" may still be the previous save's: wait for the draft itself.
    await expect.poll(() => drafts.at(-1)?.widgets?.every((w) => !w.responsiveLayouts?.sm), { timeout: 15_000 }).toBe(true);
  });
}
