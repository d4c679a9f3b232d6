import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";

/**
 * The `<svc-embed>` example pages (src/server/demo/host-page/examples/web-component), served by
 * the demo host on its own origin: each frames the demo dashboard through the element, hears
 * `ready`, sets a filter through the element's method and gets `applied`, follows the embed's
 * height, and switches the colour scheme through the `theme` attribute without a reload.
 */
const EXAMPLES = ["html", "vue", "angular"] as const;

/** The payload of the last `svc-resize` line of the page's event log. */
async function lastResizeHeight(page: Page): Promise<number | null> {
  const lines = await page.locator("#log li").allTextContents();
  const last = lines.filter((l) => l.startsWith("svc-resize ")).at(-1);
  return last ? Math.ceil((JSON.parse(last.slice("svc-resize ".length)) as { height: number }).height) : null;
}

async function frameHeight(page: Page): Promise<number> {
  return page.locator("svc-embed iframe").evaluate((el) => Math.round(el.getBoundingClientRect().height));
}

for (const example of EXAMPLES) {
  test(`the ${example} example drives the demo dashboard through <svc-embed>`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${E2E.demoHostUrl}/examples/web-component/${example}.html`);

    // The element framed the platform (another origin) with the session, and heard `ready`.
    await expect(page.locator("#status")).toContainText("Ready · signed · tenant acme-corp", { timeout: 30_000 });
    const iframe = page.locator("svc-embed iframe");
    await expect(iframe).toHaveAttribute("src", new RegExp(`^${E2E.platformUrl}/embed/dashboard/[^?]+\\?allowExport=true&session=`));
    await expect(iframe).toHaveAttribute("sandbox", /allow-scripts/);
    await expect(iframe).toHaveAttribute("title", "Sales dashboard");
    const frame = page.frameLocator("svc-embed iframe");
    await expect(frame.getByTestId("widget-kpi_orders")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await expect(page.locator("#log")).toContainText("svc-dashboard-loaded");
    const src = await iframe.getAttribute("src");

    // A method of the element: the embed applies the filter and says so.
    await page.locator("#only-completed").click();
    await expect(page.locator("#result")).toHaveText("set-filter: applied");
    await expect(page.locator("#log")).toContainText('svc-filters-changed {"filterUrlParameters":["f_sales.status=');

    // The frame is as tall as the embed's content, so the embed never scrolls inside the page.
    await expect.poll(() => lastResizeHeight(page)).toBeGreaterThan(200);
    await expect.poll(async () => (await frameHeight(page)) === (await lastResizeHeight(page))).toBe(true);
    const wide = await frameHeight(page);
    const embedScrolls = () =>
      page
        .frames()
        .find((f) => f.url().startsWith(`${E2E.platformUrl}/embed/`))!
        .evaluate(() => document.scrollingElement!.scrollHeight > document.scrollingElement!.clientHeight + 1);
    expect(await embedScrolls()).toBe(false);

    // A phone-wide page: the dashboard's widgets stack, the content grows, the frame follows.
    await page.setViewportSize({ width: 390, height: 800 });
    await expect.poll(() => frameHeight(page), { timeout: 15_000 }).toBeGreaterThan(wide);
    await expect.poll(async () => (await frameHeight(page)) === (await lastResizeHeight(page))).toBe(true);
    expect(await embedScrolls()).toBe(false);
    // And it settles: no resize loop.
    const resizes = async () => (await page.locator("#log li").allTextContents()).filter((l) => l.startsWith("svc-resize ")).length;
    const settled = await resizes();
    await page.waitForTimeout(1000);
    expect(await resizes()).toBe(settled);

    // The `theme` attribute (or property) switches the scheme live: the same document, dark.
    await page.locator("#theme").selectOption("dark");
    await expect
      .poll(() =>
        page
          .frames()
          .find((f) => f.url().startsWith(`${E2E.platformUrl}/embed/`))!
          .evaluate(() => document.documentElement.getAttribute("data-color-scheme")),
      )
      .toBe("dark");
    expect(await iframe.getAttribute("src")).toBe(src);
  });
}

test("a CSV export downloads through the element's sandboxed frame", async ({ browser }) => {
  const page = await browser.newPage({ acceptDownloads: true });
  await page.goto(`${E2E.demoHostUrl}/examples/web-component/html.html`);
  const frame = page.frameLocator("svc-embed iframe");
  await expect(frame.getByTestId("widget-top_cities")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  await frame.getByTestId("widget-top_cities").hover();
  const button = frame.getByTestId("export-csv-top_cities");
  await button.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 45_000 }), button.click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  await expect(page.locator("#log")).toContainText('svc-download {"format":"csv","target":"widget","widgetId":"top_cities"');
  await page.close();
});

test("the chat surface, which fills its frame, takes the element's min-height", async ({ page }) => {
  await page.goto(`${E2E.demoHostUrl}/examples/web-component/html.html`);
  await expect(page.locator("#log")).toContainText("svc-dashboard-loaded", { timeout: 30_000 });
  await page.addStyleTag({ content: "svc-embed { min-height: 720px }" });
  const result = await page.evaluate(() => document.querySelector("svc-embed")!.navigate("/chat"));
  expect(result.status).toBe("applied");
  await expect(page.locator("#log")).toContainText('svc-view {"surface":"chat"');
  await expect.poll(() => frameHeight(page)).toBe(720);
  await expect.poll(() => lastResizeHeight(page)).toBe(720);
  await expect(page.frameLocator("svc-embed iframe").getByText("Try asking", { exact: false })).toBeVisible();
});
