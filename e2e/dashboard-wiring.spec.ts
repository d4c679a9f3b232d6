import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { newReportInApp } from "./support/report-builder";
import { dashboardUrl, generateSession, getDemoConfig, mark, openEmbedInHost, requestAction, waitForEvent } from "./support/embed-harness";
import { E2E } from "./support/env";
import { shotsDir } from "./support/shots";

// Filter wiring and click behaviour, end to end: a creator builds a target dashboard (a chart and
// a country filter) and a source dashboard (two charts of revenue by country and a country
// filter wired to the first chart only; the first chart's click sends a host event, the
// second's opens the target dashboard with the clicked country), publishes both; a viewer
// filters and only the wired chart changes, clicks through to the target, and the host page
// receives the typed event.

const SIZE = { width: 1280, height: 900 };
const COUNTRY = "sales.customers_country";
let sourcePublicId = "";
let targetPublicId = "";
const widgets = { wired: "", linked: "", filter: "" };
let sourceWorkbookId = 0;
const OUT = shotsDir("dashboard-wiring");

/** The report of revenue by country, as a table, saved. */
async function revenueByCountry(app: FrameLocator, builder: ReturnType<FrameLocator["getByTestId"]>) {
  await builder.locator('input[data-member="sales.revenue"]').check();
  await builder.getByRole("button", { name: "+ Breakout" }).click();
  await builder.getByRole("combobox", { name: "Breakout 1" }).selectOption(COUNTRY);
  await app.getByTestId("viz-table").click();
  await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
}

async function addCountryFilter(app: FrameLocator) {
  await app.getByTestId("add-filter").click();
  await app.getByTestId("filter-member").selectOption(COUNTRY);
}

async function publish(app: FrameLocator): Promise<string> {
  await expect(app.getByTestId("draft-status")).toHaveText("Draft saved", { timeout: 15_000 });
  await app.getByTestId("publish").click();
  const published = app.getByTestId("published-dashboard");
  await expect(published).toBeVisible({ timeout: 20_000 });
  // Shared with everyone of the tenant, so a viewer may open it.
  await app.getByTestId("share-workbook").click();
  await app.getByTestId("share-all").click();
  await expect(app.getByTestId("share-all")).toBeChecked();
  await expect(app.getByTestId("app-toast")).toContainText("Sharing updated");
  await app.getByTestId("share-all").press("Escape");
  return (await published.getAttribute("data-public-id"))!;
}

const chartIds = async (app: FrameLocator) =>
  Promise.all(
    (await app.locator('.svc-app-widget[data-widget-type="CHART"]').all()).map(async (w) => (await w.getAttribute("data-testid"))!.slice("widget-".length)),
  );

async function openViewer(page: Page, publicId: string): Promise<FrameLocator> {
  const session = await generateSession(page.request, { externalId: "vic@acme.example", embedTenantName: "acme-corp" });
  const frame = await openEmbedInHost(page, dashboardUrl(publicId, session), SIZE);
  await waitForEvent(page, "svc:event:dashboard-loaded");
  return frame;
}

const rowsOf = (frame: FrameLocator, widgetId: string) => frame.getByTestId(`widget-${widgetId}`).locator(".svc-drill-button");

test.describe.serial("filter wiring and click behaviour", () => {
  test("a creator wires a filter to one of two charts and sets what their clicks do", async ({ page }) => {
    test.setTimeout(240_000);
    // The target: a chart and a country filter, published.
    const target = await newReportInApp(page, SIZE, { workbook: "Wiring target", report: "Revenue by country" });
    await revenueByCountry(target.app, target.builder);
    await target.app.getByTestId("tab-dashboard").click();
    await target.app.getByTestId("add-chart").click();
    await addCountryFilter(target.app);
    targetPublicId = await publish(target.app);
    // In the app's published view a value drills through as on the dashboard surface: the rows behind it.
    const from = await mark(page);
    await target.app.getByTestId("published-dashboard").locator(".svc-drill-button").first().click();
    const drill = target.app.getByTestId("drilldown-panel");
    await expect(drill).toHaveAttribute("data-state", "ready");
    await expect(drill.locator(".svc-table-body .svc-table-row").first()).toBeVisible();
    expect((await waitForEvent(page, "svc:event:drilldown", { from })).payload).toMatchObject({ member: "sales.revenue" });
    await page.keyboard.press("Escape");
    await expect(drill).toHaveCount(0);

    // The source: two charts of the same report and a country filter.
    const { app, builder } = await newReportInApp(page, SIZE, { workbook: "Wiring source", report: "Revenue by country" });
    await revenueByCountry(app, builder);
    await app.getByTestId("tab-dashboard").click();
    await app.getByTestId("add-chart").click();
    await app.getByTestId("add-chart").click();
    // Both charts are on the canvas before their ids are read (a read does not wait for them).
    await expect(app.locator('.svc-app-widget[data-widget-type="CHART"]')).toHaveCount(2);
    [widgets.wired, widgets.linked] = await chartIds(app);
    await addCountryFilter(app);
    sourceWorkbookId = Number(await app.getByTestId("workbook").getAttribute("data-workbook-id"));
    widgets.filter = (await app.locator('.svc-app-widget[data-widget-type="FILTER"]').getAttribute("data-testid"))!.slice("widget-".length);
    await app.getByTestId("wire-filter").click();

    // Default wiring: both charts use the filter's view, on the same member.
    await expect(app.getByTestId("wiring-bar")).toBeVisible();
    await expect(app.getByTestId(`wire-${widgets.wired}`)).toHaveAttribute("data-connected", "true");
    await expect(app.getByTestId(`wire-${widgets.linked}`)).toHaveAttribute("data-connected", "true");
    await expect(app.getByTestId(`wire-${widgets.wired}-member`)).toHaveValue(COUNTRY);
    await expect(app.getByTestId("wiring-count")).toContainText("2 of 2");
    // Off for the second chart: not connected, and why.
    await app.getByTestId(`wire-${widgets.linked}-switch`).uncheck();
    await expect(app.getByTestId(`wire-${widgets.linked}`)).toHaveAttribute("data-connected", "false");
    await expect(app.getByTestId(`wire-${widgets.linked}-reason`)).toContainText("Switched off");
    await expect(app.getByTestId("wiring-count")).toContainText("1 of 2");
    await app.getByTestId("wiring-done").click();
    await expect(app.getByTestId("wiring-bar")).toBeHidden();

    // The first chart's click: a host event.
    const configure = (id: string) => app.locator(`.svc-app-widget[data-testid="widget-${id}"]`).getByRole("button", { name: "Configure Chart widget" });
    await configure(widgets.wired).click();
    await app.getByTestId("click-event").check();
    await app.getByTestId("click-event-name").fill("open-country");
    // The second's: the target dashboard, the clicked country into its country filter.
    await configure(widgets.linked).click();
    await app.getByTestId("click-link").check();
    await app.getByTestId("click-link-dashboard").selectOption({ label: await workbookName(app, "Wiring target") });
    await app.getByTestId("click-link-filter").selectOption(COUNTRY);
    await expect(app.getByTestId("click-link-source")).toHaveValue(COUNTRY);
    sourcePublicId = await publish(app);
  });

  test("a viewer filters: only the wired chart changes", async ({ page }) => {
    test.setTimeout(90_000);
    const frame = await openViewer(page, sourcePublicId);
    await expect(rowsOf(frame, widgets.wired).first()).toBeVisible({ timeout: 30_000 });
    const before = await rowsOf(frame, widgets.linked).count();
    expect(before).toBeGreaterThan(1);
    await expect(rowsOf(frame, widgets.wired)).toHaveCount(before);

    const from = await mark(page);
    await frame.locator(".svc-picker-button").first().click();
    const country = (await frame.locator(".svc-option").first().innerText()).trim();
    await frame.locator(".svc-option").first().click();
    await waitForEvent(page, "svc:event:filters-changed", { from });
    await expect(rowsOf(frame, widgets.wired)).toHaveCount(1, { timeout: 20_000 });
    await expect(frame.getByTestId(`widget-${widgets.wired}`)).toContainText(country);
    // The chart the filter is not wired to keeps every country.
    await expect(rowsOf(frame, widgets.linked)).toHaveCount(before);
  });

  test("a host-event chart posts svc:event:widget-click with the clicked row", async ({ page }) => {
    test.setTimeout(60_000);
    const frame = await openViewer(page, sourcePublicId);
    const from = await mark(page);
    await rowsOf(frame, widgets.wired).first().click();
    const event = await waitForEvent(page, "svc:event:widget-click", { from });
    expect(event).toMatchObject({ surface: "dashboard", payload: { name: "open-country", widgetId: widgets.wired, member: "sales.revenue" } });
    const dimensions = event.payload.dimensions as Record<string, unknown>;
    expect(typeof dimensions[COUNTRY]).toBe("string");
    // No drilldown opened instead.
    await expect(frame.getByTestId("drilldown-panel")).toHaveCount(0);
  });

  test("a link chart opens the other dashboard with the clicked value as its filter", async ({ page }) => {
    test.setTimeout(90_000);
    const frame = await openViewer(page, sourcePublicId);
    await expect(rowsOf(frame, widgets.linked).first()).toBeVisible({ timeout: 30_000 });
    const from = await mark(page);
    await rowsOf(frame, widgets.linked).first().click();
    const navigated = await waitForEvent(page, "svc:event:navigate", { from });
    expect(navigated.payload.path).toBe(`/dashboard/${targetPublicId}`);
    const changed = await waitForEvent(page, "svc:event:filters-changed", { from });
    const parameters = changed.payload.filterUrlParameters as string[];
    expect(parameters).toHaveLength(1);
    expect(parameters[0]).toMatch(new RegExp(`^f_${COUNTRY.replace(".", "\\.")}=`));
    await expect(frame.getByTestId("dashboard")).toHaveAttribute("data-public-id", targetPublicId, { timeout: 20_000 });
    // The target's one chart shows the clicked country only, and its filter control says which.
    await expect(frame.locator(".svc-drill-button")).toHaveCount(1, { timeout: 20_000 });
    await expect(frame.locator(".svc-picker-summary").first()).not.toHaveText(/^All$/);
  });

  // Screens of the wiring mode and of the click panel, light and dark, desktop and phone (to SVC_SHOTS_DIR).
  for (const size of [
    { width: 1280, height: 860 },
    { width: 390, height: 844 },
  ]) {
    test(`screens of the wiring mode and the click panel (${size.width})`, async ({ page }) => {
      test.setTimeout(90_000);
      const { deploymentId } = await getDemoConfig(page.request);
      const src = new URL(`/embed/d/${deploymentId}/app/workbooks/${sourceWorkbookId}/dashboard`, E2E.platformUrl);
      src.searchParams.set("session", await generateSession(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true }));
      const app = await openEmbedInHost(page, src.toString(), size);
      const shoot = async (name: string) => {
        if (!OUT) return;
        for (const scheme of ["light", "dark"] as const) {
          expect((await requestAction(page, "svc:action:set-color-scheme", { scheme })).status).toBe("applied");
          await page.waitForTimeout(300);
          await page.screenshot({ path: `${OUT}/${name}-${size.width}-${scheme}.png`, fullPage: true });
        }
      };
      const configure = (id: string, kind: string) =>
        app.locator(`.svc-app-widget[data-testid="widget-${id}"]`).getByRole("button", { name: `Configure ${kind} widget` });
      await expect(app.locator(`.svc-app-widget[data-testid="widget-${widgets.wired}"] [data-state="ready"]`)).toBeVisible({ timeout: 30_000 });
      await configure(widgets.filter, "Filter").click();
      await app.getByTestId("wire-filter").click();
      await expect(app.getByTestId(`wire-${widgets.linked}-reason`)).toBeVisible();
      // From the top: the bar and the first widgets.
      await app.getByTestId("wiring-bar").evaluate((el) => {
        for (let node: Element | null = el; node; node = node.parentElement) node.scrollTop = 0;
      });
      await shoot("wiring-mode");
      await app.getByTestId("wiring-done").click();
      await configure(widgets.linked, "Chart").click();
      await expect(app.getByTestId("click-link-filter")).toHaveValue(COUNTRY);
      await shoot("click-panel");
    });
  }
});

/** The full name of a workbook created with a prefix (its name carries a time stamp). */
async function workbookName(app: FrameLocator, prefix: string): Promise<string> {
  const named = async () => (await app.getByTestId("click-link-dashboard").locator("option").allInnerTexts()).filter((o) => o.startsWith(prefix)).sort();
  // The workbooks are listed once the app has read them.
  await expect.poll(async () => (await named()).length, { timeout: 15_000 }).toBeGreaterThan(0);
  return (await named()).at(-1)!;
}
