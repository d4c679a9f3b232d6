import { expect, test, type Page } from "@playwright/test";
import { countChartColours, embedFrame, openHost, requestAction, waitForEvent, waitForWidgetsSettled } from "./support/embed-harness";

// Theme, colour scheme and locale switched by the host at runtime show in the dashboard:
// a CSS variable, data-color-scheme and the charts' palette, lang and the number formats.

/** Pixels of a chart close to each of the colours (RGB hex), counted in the embed. */
async function countColours(page: Page, widgetId: string, colours: string[]): Promise<number[]> {
  return (await countChartColours(page, widgetId, colours)).counts;
}

// The "completed" slice of the status donut: the second colour of each scheme's palette.
const LIGHT_SKY = "#0ea5e9";
const DARK_SKY = "#38bdf8";

test.describe("theme, scheme and locale at runtime", () => {
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    page = await browser.newPage();
    await openHost(page, { params: {} });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    await waitForWidgetsSettled(page);
  });

  test.afterAll(async () => {
    await page.close();
  });

  test("set-theme changes the brand colour variable", async () => {
    expect((await requestAction(page, "svc:action:set-theme", { primaryColor: "#e11d48", borderRadius: 4 })).status).toBe("applied");
    await expect
      .poll(() => embedFrame(page).evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--svc-primary").trim().toLowerCase()))
      .toBe("#e11d48");
    await expect.poll(() => embedFrame(page).evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--svc-radius").trim())).toBe("4px");
  });

  test("set-color-scheme dark switches the document and redraws charts with the dark palette", async () => {
    const frame = page.frameLocator("#embed");
    await frame.getByTestId("widget-orders_by_status").scrollIntoViewIfNeeded();
    await expect.poll(async () => (await countColours(page, "orders_by_status", [LIGHT_SKY, DARK_SKY]))[0]).toBeGreaterThan(500);
    expect((await countColours(page, "orders_by_status", [LIGHT_SKY, DARK_SKY]))[1]).toBe(0);

    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
    await expect.poll(() => embedFrame(page).evaluate(() => document.documentElement.dataset.colorScheme)).toBe("dark");
    await expect.poll(async () => (await countColours(page, "orders_by_status", [LIGHT_SKY, DARK_SKY]))[1]).toBeGreaterThan(500);
    expect((await countColours(page, "orders_by_status", [LIGHT_SKY, DARK_SKY]))[0]).toBe(0);
    // The surfaces follow: the page background is the dark canvas.
    const background = await embedFrame(page).evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(11, 15, 23)");

    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "light" })).status).toBe("applied");
    await expect.poll(async () => (await countColours(page, "orders_by_status", [LIGHT_SKY, DARK_SKY]))[0]).toBeGreaterThan(500);
  });

  test("set-locale de-DE changes lang and number formats (decimal comma)", async () => {
    const frame = page.frameLocator("#embed");
    const aov = frame.getByTestId("widget-kpi_aov").locator(".svc-kpi-value");
    await expect(aov).toHaveText(/^\$\d{3}\.\d{2}$/);
    expect((await requestAction(page, "svc:action:set-locale", { locale: "de-DE" })).status).toBe("applied");
    await expect.poll(() => embedFrame(page).evaluate(() => document.documentElement.lang)).toBe("de-DE");
    await expect(aov).toHaveText(/^\d{3},\d{2}\s\$$/);
    await expect(frame.getByTestId("widget-kpi_orders").locator(".svc-kpi-value")).toHaveText(/^\d{1,3}\.\d{3}$/);
    expect((await requestAction(page, "svc:action:set-locale", { locale: "en-US" })).status).toBe("applied");
    await expect(aov).toHaveText(/^\$\d{3}\.\d{2}$/);
  });
});
