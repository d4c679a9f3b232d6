import { expect, test } from "@playwright/test";
import {
  generateSession,
  getDemoConfig,
  openEmbedInHost,
  openHost,
  requestAction,
  waitForEvent,
  waitForWidgetsSettled,
  wholeAnswer,
} from "./support/embed-harness";
import { E2E } from "./support/env";

// The demo's content in the viewer's language (docs/translation.md): titles, filter labels,
// column headers, status values and country names from the demo's dictionaries, while filters
// keep working on the raw values.

test.describe("the demo dashboard translated", () => {
  test("a German viewer reads German titles, labels, headers, statuses and country names", async ({ page }) => {
    await openHost(page, { params: { locale: "de" } });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    await waitForWidgetsSettled(page);
    const frame = page.frameLocator("#embed");
    await expect(frame.getByRole("heading", { name: "Verkaufsübersicht" })).toBeVisible();
    await expect(frame.getByTestId("widget-filter_country")).toContainText("Land");
    await expect(frame.getByTestId("widget-filter_date")).toContainText("Bestelldatum");
    await expect(frame.getByTestId("widget-kpi_revenue")).toContainText("Umsatz");
    await expect(frame.getByTestId("widget-kpi_revenue")).toContainText("Q2 2025 gegenüber Q2 2024");
    const cities = frame.getByTestId("widget-top_cities");
    await cities.scrollIntoViewIfNeeded();
    await expect(cities).toContainText("Städte nach Umsatz");
    await expect(cities.getByRole("columnheader").first()).toBeVisible();
    // Country codes shown by their German names (the table draws the rows in view: the first
    // cities by revenue are in the United States).
    await expect(cities).toContainText("Vereinigte Staaten");
    await expect(cities).not.toContainText("United States");
    await expect(cities).toContainText("Abschlussquote");
    await expect(cities).not.toContainText("Completion Rate");
    // The HTML report's labels are its members' titles (`{{title:member}}`), in German too.
    const highlights = frame.getByTestId("widget-highlights");
    await highlights.scrollIntoViewIfNeeded();
    await expect(highlights.frameLocator("iframe.svc-html-frame").locator("body")).toContainText("Kunden");
    await expect(highlights.frameLocator("iframe.svc-html-frame").locator("body")).toContainText("Verkaufte Einheiten");

    // The status picker lists German statuses; picking one filters by the raw value.
    await frame.getByTestId("widget-filter_status").locator(".svc-picker-button").click();
    const completed = frame.getByRole("option", { name: "abgeschlossen" });
    await expect(completed).toBeVisible();
    await completed.click();
    await expect(frame.getByTestId("widget-filter_status").locator(".svc-picker-button")).toContainText("abgeschlossen");
    await waitForWidgetsSettled(page);
    await expect(cities).toContainText("Vereinigte Staaten");

    // The rows behind a city: the slice and the rows name the country and statuses in German too.
    await cities.locator(".svc-drill-button").first().click();
    const drill = frame.getByTestId("drilldown-panel");
    await expect(drill).toHaveAttribute("data-state", "ready");
    await expect(drill.locator(".svc-chip, [class*=chip]").filter({ hasText: "Vereinigte Staaten" }).first()).toBeVisible();
    await expect(drill.getByRole("table")).toContainText("Vereinigte Staaten");
    await expect(drill.getByRole("table")).toContainText("abgeschlossen");
    await expect(drill.getByRole("table")).not.toContainText("completed");

    // Dates as German writes them, whatever the browser's own language (a native date input
    // would show the browser's "mm/dd/yyyy"); a typed date reaches the host as a filter.
    const from = frame.getByRole("textbox", { name: "Bestelldatum Von" });
    await expect(from).toHaveAttribute("placeholder", "TT.MM.JJJJ");
    const seen = await page.evaluate(() => (window as unknown as { __events: unknown[] }).__events.length);
    await from.fill("1.4.2025");
    await from.press("Enter");
    await expect(from).toHaveValue("01.04.2025");
    expect(JSON.stringify(await waitForEvent(page, "svc:event:filters-changed", { from: seen }))).toContain("2025-04-01");
  });

  test("set-locale to Spanish re-titles the dashboard and its answers", async ({ page }) => {
    await openHost(page, { params: {} });
    await waitForEvent(page, "svc:event:dashboard-loaded");
    await waitForWidgetsSettled(page);
    const frame = page.frameLocator("#embed");
    await expect(frame.getByRole("heading", { name: "Sales overview" })).toBeVisible();
    expect((await requestAction(page, "svc:action:set-locale", { locale: "es" })).status).toBe("applied");
    await expect(frame.getByRole("heading", { name: "Resumen de ventas" })).toBeVisible();
    await expect(frame.getByTestId("widget-filter_country")).toContainText("País");
    const cities = frame.getByTestId("widget-top_cities");
    await cities.scrollIntoViewIfNeeded();
    await expect(cities).toContainText("Ingresos");
    await expect(cities).toContainText("Estados Unidos");

    // In the demo host's 1010 px frame the KPI cards are four in a row: each value ("1.247.420
    // US$", "408,86 US$") is sized to its card, on one line, and ends inside it ("408,86 US"
    // once wrapped its "$" under it and was cut at the card's top).
    await page.evaluate(() => void ((document.getElementById("embed") as HTMLIFrameElement).style.width = "1010px"));
    await expect(frame.getByTestId("widget-kpi_revenue").locator(".svc-kpi-value")).toContainText("US$");
    await expect(frame.getByTestId("widget-kpi_aov").locator(".svc-kpi-value")).toContainText("US$");
    for (const id of ["kpi_revenue", "kpi_orders", "kpi_aov", "kpi_completion"])
      await expect
        .poll(() =>
          frame.getByTestId(`widget-${id}`).evaluate((card) => {
            const element = card.querySelector(".svc-kpi-value")!;
            const value = element.getBoundingClientRect();
            const oneLine = value.height < parseFloat(getComputedStyle(element).fontSize) * 1.5;
            return value.right <= card.getBoundingClientRect().right - 8 && oneLine;
          }),
        )
        .toBe(true);
    // A subtitle too long for one line takes a second one, not an ellipsis.
    expect(
      await frame
        .getByTestId("widget-kpi_completion")
        .locator(".svc-widget-description")
        .evaluate((p) => p.scrollWidth <= p.clientWidth && p.scrollHeight <= p.clientHeight && p.textContent === "Porcentaje de pedidos completados"),
    ).toBe(true);
    // The AI summary in Spanish is longer than its card as the author sized it: the card grows to
    // the whole answer (it scrolled once, cut at the bottom).
    const answer = frame.getByTestId("ai-answer-ask");
    await expect(answer).toContainText("Regenerar");
    await expect.poll(() => wholeAnswer(answer)).toBe(true);
  });

  test("the creator app in Spanish starts from translated dashboards and builds with translated views and members", async ({ page }) => {
    const { deploymentId } = await getDemoConfig(page.request);
    const src = new URL(`/embed/d/${deploymentId}/app`, E2E.platformUrl);
    const session = await generateSession(page.request, {
      externalId: "ana@acme.example",
      embedTenantName: "acme-corp",
      creatorMode: true,
      settings: { locale: "es-ES" },
    });
    src.searchParams.set("session", session);
    const app = await openEmbedInHost(page, src.toString(), { width: 1010, height: 760 });
    await expect(app.getByRole("combobox", { name: "Panel" })).toContainText("Resumen de ventas");
    await app.getByTestId("new-workbook").click();
    await app.getByTestId("name-input").fill(`Libro ${Date.now().toString(36)}`);
    await app.getByTestId("name-submit").click();
    await app.getByRole("button", { name: "Crear un informe" }).click();
    await app.getByTestId("name-input").fill("Ingresos por país");
    await app.getByTestId("name-submit").click();
    const builder = app.getByTestId("report-builder");
    await expect(builder.getByRole("combobox", { name: "Vista" })).toContainText("Ventas");
    await expect(builder).toContainText("Pedidos con sus clientes y productos.");
    await expect(builder.locator('label:has(input[data-member="sales.revenue"])')).toHaveText("Ingresos");
  });
});
