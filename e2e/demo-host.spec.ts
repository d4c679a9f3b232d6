import { expect, test } from "@playwright/test";
import { E2E } from "./support/env";

test.describe("the demo host", () => {
  test("renders the demo dashboard with real numbers inside the cross-origin iframe", async ({ page }) => {
    await page.goto(`${E2E.demoHostUrl}/`);
    const iframe = page.locator("iframe#embed");
    await expect(iframe).toHaveAttribute("src", new RegExp(`^${E2E.platformUrl}/embed/dashboard/`));
    const frame = page.frameLocator("iframe#embed");
    await expect(frame.getByTestId("dashboard")).toBeVisible({ timeout: 30_000 });
    for (const id of ["kpi_revenue", "kpi_orders", "top_cities"]) {
      await expect(frame.getByTestId(`widget-${id}`)).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    }
    // Real figures from the demo data set, not placeholders.
    await expect(frame.getByTestId("widget-kpi_orders")).toContainText(/[1-9]/);
    await expect(frame.getByTestId("widget-top_cities").getByRole("row").nth(1)).toContainText(/[1-9]/);
    // The host page heard the embed: signed mode, the tenant it chose.
    await expect(page.locator("#status")).toContainText("signed");
    await expect(page.locator("#status")).toContainText("acme-corp");
  });
});

test.describe("the demo host's creator tab", () => {
  test("embeds the creator-mode app for the signed-in tenant user", async ({ page }) => {
    await page.goto(`${E2E.demoHostUrl}/`);
    await page.getByRole("tab", { name: "Creator" }).click();
    await expect(page.locator("iframe#embed")).toHaveAttribute("src", new RegExp(`^${E2E.platformUrl}/embed/d/\\d+/app\\?`));
    const frame = page.frameLocator("iframe#embed");
    await expect(frame.getByTestId("app-home")).toBeVisible({ timeout: 30_000 });
    await expect(frame.getByTestId("nav-shared")).toContainText("acme-corp");
    await expect(page.locator("#status")).toContainText("acme-corp");
  });
});
