import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import {
  dashboardUrl,
  embedFrame,
  eventsOf,
  generateSession,
  getDemoConfig,
  openEmbedInHost,
  requestAction,
  waitForEvent,
  waitForWidgetsSettled,
} from "./support/embed-harness";

// Export grants per format: the host's backend grants formats in the session
// (settings.allowExport), the URL's allowExport=true turns the controls on within that grant.
// A session granted CSV only shows CSV alone (widget menus, drill-down panel, no dashboard
// picture menu), and the platform refuses a forged XLSX or PNG request made with its token.

const SCREENSHOTS = process.env.SVC_EXPORT_GRANT_SHOTS;

async function openWithGrant(page: Page, allowExport: unknown, params: Record<string, string>, width = 1240) {
  const { dashboardPublicId } = await getDemoConfig(page.request);
  const sessionId = await generateSession(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", settings: { allowExport } });
  // The embed's bearer token, read off its own requests (the forged requests below reuse it).
  const token = new Promise<string>((resolve) => {
    page.on("request", (r) => {
      const authorization = r.headers().authorization;
      if (r.url().startsWith(`${E2E.platformUrl}/api/v1/`) && authorization?.startsWith("Bearer ")) resolve(authorization.slice("Bearer ".length));
    });
  });
  await openEmbedInHost(page, dashboardUrl(dashboardPublicId, sessionId, params), { width, height: 900 });
  await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
  await waitForWidgetsSettled(page);
  return { token: await token };
}

test.describe("a session granted CSV only", () => {
  test("shows only CSV, downloads it, and the platform refuses a forged XLSX or PNG request", async ({ browser }) => {
    const page = await browser.newPage({ acceptDownloads: true });
    const { deploymentId } = await getDemoConfig(page.request);
    const { token } = await openWithGrant(page, ["csv"], { allowExport: "true" });
    const frame = page.frameLocator("#embed");

    // `ready` tells the host which formats this embed offers.
    const [ready] = await eventsOf(page, "svc:event:ready");
    expect(ready!.payload.exportFormats).toEqual(["csv"]);

    // Widget menus: CSV alone; no dashboard picture menu.
    const table = frame.getByTestId("widget-top_cities");
    await table.scrollIntoViewIfNeeded();
    await expect(frame.getByTestId("export-csv-top_cities")).toBeVisible();
    await expect(frame.locator('[data-testid^="export-csv-"]').first()).toBeVisible();
    await expect(frame.locator('[data-testid^="export-xlsx-"], [data-testid^="export-png-"], [data-testid^="export-pdf-"]')).toHaveCount(0);
    await expect(table.getByRole("group", { name: "Export" }).getByRole("button")).toHaveText(["CSV"]);
    if (SCREENSHOTS) {
      // The widget's tools show while the pointer is on it.
      await table.hover();
      await table.screenshot({ path: `${SCREENSHOTS}/widget-menu-light.png` });
    }

    // The CSV is downloaded as before.
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 45_000 }), frame.getByTestId("export-csv-top_cities").click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    expect(readFileSync((await download.path())!).toString("utf8")).toMatch(/City/);
    await waitForEvent(page, "svc:event:download", { payload: { format: "csv", widgetId: "top_cities" } });

    // The drill-down panel offers CSV alone.
    await table.locator(".svc-table-body .svc-drill-button").first().click();
    const panel = frame.getByTestId("drilldown-panel");
    await expect(panel).toHaveAttribute("data-state", "ready");
    await expect(panel.getByTestId("drilldown-export-csv")).toBeVisible();
    await expect(panel.getByTestId("drilldown-export-xlsx")).toHaveCount(0);
    if (SCREENSHOTS) await panel.screenshot({ path: `${SCREENSHOTS}/drilldown-light.png` });
    await panel.getByRole("button", { name: "Close" }).click();

    // Dark: the same menu.
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
    await expect(frame.locator("html")).toHaveAttribute("data-color-scheme", "dark");
    if (SCREENSHOTS) {
      await table.hover();
      await table.screenshot({ path: `${SCREENSHOTS}/widget-menu-dark.png` });
      await table.locator(".svc-table-body .svc-drill-button").first().click();
      await expect(panel).toHaveAttribute("data-state", "ready");
      await panel.screenshot({ path: `${SCREENSHOTS}/drilldown-dark.png` });
      await panel.getByRole("button", { name: "Close" }).click();
    }

    // Forged requests with the embed's own token, from inside the embed's page: refused, nothing saved.
    const downloadsBefore = (await eventsOf(page, "svc:event:download")).length;
    let saved = false;
    page.on("download", () => (saved = true));
    const forged = await embedFrame(page).evaluate(
      async ({ token, deploymentId }) => {
        const post = async (path: string, body: unknown) => {
          const res = await fetch(path, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          });
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        };
        const query = { measures: ["sales.revenue"], dimensions: ["sales.customers_city"], limit: 50000 };
        return {
          xlsx: await post(`/api/v1/deployments/${deploymentId}/query`, { query, export: { format: "xlsx" } }),
          csv: await post(`/api/v1/deployments/${deploymentId}/query`, { query, export: { format: "csv" } }),
          png: await post("/api/v1/embed/exports", { format: "png", target: "widget" }),
          pdf: await post("/api/v1/embed/exports", { format: "pdf", target: "dashboard" }),
        };
      },
      { token, deploymentId },
    );
    expect(forged.xlsx.status).toBe(403);
    expect(forged.xlsx.body).toMatchObject({ code: "export_format_not_allowed", message: "This embed session may not export XLSX; it may export CSV" });
    expect(forged.xlsx.body).not.toHaveProperty("data");
    expect(forged.png.status).toBe(403);
    expect(forged.png.body.code).toBe("export_format_not_allowed");
    expect(forged.pdf.status).toBe(403);
    // The granted format still answers its rows with the same token.
    expect(forged.csv.status).toBe(200);
    expect((forged.csv.body.data as unknown[]).length).toBeGreaterThan(5);
    expect(saved).toBe(false);
    expect(await eventsOf(page, "svc:event:download")).toHaveLength(downloadsBefore);
    await page.close();
  });
});

test.describe("the URL only narrows the grant", () => {
  test("every format granted, but no allowExport=true: no controls, ready lists none", async ({ page }) => {
    await openWithGrant(page, true, {});
    const frame = page.frameLocator("#embed");
    await frame.getByTestId("widget-top_cities").hover();
    await expect(frame.locator('[data-testid^="export-"]')).toHaveCount(0);
    expect((await eventsOf(page, "svc:event:ready"))[0]!.payload.exportFormats).toEqual([]);
  });

  test("allowExport=true with a session granting nothing: no controls", async ({ page }) => {
    await openWithGrant(page, false, { allowExport: "true" });
    const frame = page.frameLocator("#embed");
    await frame.getByTestId("widget-top_cities").hover();
    await expect(frame.locator('[data-testid^="export-"]')).toHaveCount(0);
    expect((await eventsOf(page, "svc:event:ready"))[0]!.payload.exportFormats).toEqual([]);
  });

  test("pictures only: PNG on widgets and the dashboard's PNG and PDF, no CSV or XLSX anywhere (phone width)", async ({ page }) => {
    await openWithGrant(page, ["png", "pdf"], { allowExport: "true" }, 390);
    const frame = page.frameLocator("#embed");
    await expect(frame.getByTestId("export-png-dashboard")).toBeVisible();
    await expect(frame.getByTestId("export-pdf-dashboard")).toBeVisible();
    await expect(frame.getByTestId("export-png-top_cities")).toBeAttached();
    await expect(frame.locator('[data-testid^="export-csv-"], [data-testid^="export-xlsx-"]')).toHaveCount(0);
    if (SCREENSHOTS) {
      await frame.locator(".svc-dashboard-header").screenshot({ path: `${SCREENSHOTS}/dashboard-menu-phone-light.png` });
      const table = frame.getByTestId("widget-top_cities");
      await table.scrollIntoViewIfNeeded();
      await table.hover();
      await table.screenshot({ path: `${SCREENSHOTS}/widget-menu-phone-light.png` });
      expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
      await expect(frame.locator("html")).toHaveAttribute("data-color-scheme", "dark");
      await table.hover();
      await table.screenshot({ path: `${SCREENSHOTS}/widget-menu-phone-dark.png` });
      await frame.locator(".svc-dashboard-header").scrollIntoViewIfNeeded();
      await frame.locator(".svc-dashboard-header").screenshot({ path: `${SCREENSHOTS}/dashboard-menu-phone-dark.png` });
    }
  });
});
