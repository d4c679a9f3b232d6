import { expect, test } from "@playwright/test";
import { E2E } from "./support/env";

test("screens", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`${E2E.demoHostUrl}/?dashboard=app`);
  const app = page.frameLocator("#embed").frameLocator("[data-testid=app-frame]");
  await expect(app.locator("[data-stage=placed] b")).toHaveText(/\d/, { timeout: 60_000 });
  await expect(app.getByTestId("python-summary")).toContainText("completed", { timeout: 120_000 });
  await page.waitForTimeout(800);
  await page.screenshot({ path: "docs/screenshots/app-dashboard-light.png" });
  await page.locator("button[data-scheme=dark]").click();
  await expect(app.locator("html")).toHaveAttribute("data-scheme", "dark");
  await page.waitForTimeout(1500);
  await page.screenshot({ path: "docs/screenshots/app-dashboard-dark.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${E2E.platformUrl}/embed/dashboard/${(await (await page.request.get(`${E2E.demoHostUrl}/config.json`)).json()).appDashboardPublicId}`);
  await page.waitForTimeout(500);
});
