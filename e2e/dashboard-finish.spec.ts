import { expect, test, type Frame, type Page } from "@playwright/test";
import { countChartColours, embedFrame, openHost, requestAction, waitForEvent, waitForWidgetsSettled, wholeAnswer } from "./support/embed-harness";

// What a new user saw and should never see again: a drop-down behind the cards, clipped
// numbers, headers and columns, a drill-down with one total row, a map with no land,
// colours that change with a filter, a tall phone filter bar, English period phrases.

async function open(page: Page, params: Record<string, string> = { allowExport: "true" }, frameWidth?: number) {
  await openHost(page, { params });
  // The fixture's frame is 1200 px wide; a phone is narrower.
  if (frameWidth) await page.evaluate((w) => (document.getElementById("embed")!.style.width = `${w}px`), frameWidth);
  await waitForEvent(page, "svc:event:dashboard-loaded");
  await waitForWidgetsSettled(page);
}

/** Elements whose text is cut (wider content than box), with their text. */
function clipped(frame: Frame, selector: string): Promise<string[]> {
  return frame.evaluate(
    (selector) =>
      [...document.querySelectorAll<HTMLElement>(selector)]
        .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
        .map((e) => e.textContent ?? ""),
    selector,
  );
}

/** The topmost element at the centre of `selector`'s first match is inside it. */
function onTop(frame: Frame, selector: string): Promise<boolean> {
  return frame.evaluate((selector) => {
    const target = document.querySelector<HTMLElement>(selector)!;
    const box = target.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.bottom - 8);
    return !!hit && target.contains(hit);
  }, selector);
}

test.describe("the finished dashboard", () => {
  test("the Status drop-down opens above the KPI cards, every option reachable", async ({ page }) => {
    await open(page);
    const frame = page.frameLocator("#embed");
    await frame.getByTestId("widget-filter_status").locator(".svc-picker-button").click();
    const options = frame.getByRole("option");
    await expect(options).toHaveCount(5);
    // The list's last option is drawn above the KPI card under it, and takes the click.
    expect(await onTop(embedFrame(page), ".svc-popover")).toBe(true);
    await options.last().click();
    await expect(frame.getByTestId("widget-filter_status").locator(".svc-picker-button")).toHaveClass(/is-active/);
  });

  for (const [name, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    test(`nothing is clipped on ${name}: KPI values, table headers and cells, widget titles`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await open(page, { allowExport: "true" }, viewport.width);
      const frame = embedFrame(page);
      await page.frameLocator("#embed").getByTestId("widget-top_cities").scrollIntoViewIfNeeded();
      expect(await clipped(frame, ".svc-kpi-value, .svc-widget-title")).toEqual([]);
      expect(await clipped(frame, '[data-testid="widget-top_cities"] .svc-table-cell')).toEqual([]);
      expect(await clipped(frame, '[data-testid="widget-top_cities"] .svc-drill-button')).toEqual([]);
      // The table's headers are the model's titles, whole; every column is there (scrolling sideways on a phone).
      const headers = await frame.locator('[data-testid="widget-top_cities"] [role="columnheader"]').allTextContents();
      expect(headers).toEqual(["City", "Country", "Revenue", "Orders", "Average Order Value", "Completion Rate"]);
      // The AI summary is never cut off: its card grows to the whole answer (it scrolled once).
      await expect.poll(() => wholeAnswer(page.frameLocator("#embed").getByTestId("ai-answer-ask"))).toBe(true);
    });
  }

  for (const [width, rows] of [
    [1010, [4]],
    [700, [2, 2]],
  ] as const) {
    test(`the four KPI cards stay together above the charts in a ${width} px frame`, async ({ page }) => {
      await page.setViewportSize({ width: width + 40, height: 900 });
      await open(page, { allowExport: "true" }, width);
      const frame = embedFrame(page);
      const boxes = await frame.evaluate(() =>
        ["kpi_revenue", "kpi_orders", "kpi_aov", "kpi_completion", "revenue_trend"].map((id) => {
          const r = document.querySelector(`[data-testid="widget-${id}"]`)!.getBoundingClientRect();
          return { top: Math.round(r.top), bottom: Math.round(r.bottom) };
        }),
      );
      const kpis = boxes.slice(0, 4);
      const tops = [...new Set(kpis.map((b) => b.top))];
      expect(tops.map((top) => kpis.filter((b) => b.top === top).length)).toEqual(rows);
      // Right under one another, and the trend chart below the last of them.
      expect(Math.max(...kpis.map((b) => b.bottom))).toBeLessThanOrEqual(boxes[4]!.top);
      expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(250);
    });
  }

  // 390 px, and 320 px (the narrowest phone): where the grain switch once broke into three and one.
  for (const width of [390, 320])
    test(`phone, ${width} px: value pickers share a row and the filter bar stays short`, async ({ page }) => {
      await page.setViewportSize({ width, height: 844 });
      await open(page, { allowExport: "true" }, width);
      const frame = page.frameLocator("#embed");
      const status = (await frame.getByTestId("widget-filter_status").boundingBox())!;
      const country = (await frame.getByTestId("widget-filter_country").boundingBox())!;
      expect(Math.abs(status.y - country.y)).toBeLessThan(2);
      expect(country.x).toBeGreaterThan(status.x + status.width - 1);
      await expect(frame.getByTestId("widget-filter_status").locator(".svc-picker-button")).toContainText("Status");
      // "Status: All" whole in each of the two pickers of the row.
      for (const id of ["widget-filter_status", "widget-filter_country"])
        expect(
          await frame
            .getByTestId(id)
            .locator(".svc-picker-summary")
            .evaluate((el) => el.scrollWidth <= el.clientWidth),
        ).toBe(true);
      const grain = (await frame.getByTestId("widget-grain").boundingBox())!;
      const firstKpi = (await frame.getByTestId("widget-kpi_revenue").boundingBox())!;
      // Four controls in well under 300 px (they took ~440 px, one tall row each).
      expect(firstKpi.y - status.y).toBeLessThan(300);
      expect(grain.height).toBeLessThan(60);
      // The grain switch is one row of buttons, no empty grey block under it.
      expect((await frame.getByTestId("widget-grain").locator(".svc-segmented").boundingBox())!.height).toBeLessThan(40);
      // The intro text and the controls are as tall as their content: no empty space under the
      // text (its desktop cell left ~50 px), a date range not rounded up to two grid rows, and
      // each cell one margin (16 px) under the one before.
      const intro = await frame.getByTestId("widget-intro").evaluate((el) => ({
        cell: el.closest(".svc-grid-item")!.getBoundingClientRect().bottom,
        text: el.querySelector(".svc-markdown")!.getBoundingClientRect().bottom,
      }));
      expect(intro.cell - intro.text).toBeLessThan(20);
      const date = (await frame.getByTestId("widget-filter_date").boundingBox())!;
      expect(date.height).toBeLessThan(72);
      const introBox = (await frame.getByTestId("widget-intro").boundingBox())!;
      const gaps = [
        status.y - (introBox.y + introBox.height),
        date.y - Math.max(status.y + status.height, country.y + country.height),
        grain.y - (date.y + date.height),
      ];
      for (const gap of gaps) expect(Math.abs(gap - 16)).toBeLessThanOrEqual(2);
    });

  test("drill-down lists the orders behind a value, paged and sorted on the server, with the value drilled into", async ({ page }) => {
    await open(page);
    const frame = page.frameLocator("#embed");
    const table = frame.getByTestId("widget-top_cities");
    await table.scrollIntoViewIfNeeded();
    await table.locator(".svc-table-body .svc-drill-button").first().click();
    const panel = frame.getByTestId("drilldown-panel");
    await expect(panel).toHaveAttribute("data-state", "ready");
    await expect(panel.getByTestId("drilldown-context")).toContainText("City: New York");
    // Countries by name, in the slice and in the rows, as on the dashboard.
    await expect(panel.getByTestId("drilldown-context")).toContainText("Country: United States");
    await expect(panel.locator(".svc-table-body")).toContainText("United States");
    await expect(panel.locator('[role="columnheader"]').filter({ hasText: "Order ID" })).toHaveCount(1);
    await expect(panel.getByTestId("drilldown-range")).toHaveText(/^1–50$/);
    const firstPage = await panel.locator(".svc-table-body .svc-table-row").first().textContent();
    await panel.getByRole("button", { name: "Next" }).click();
    await expect(panel.getByTestId("drilldown-range")).toHaveText(/^51–100/);
    await expect(panel).toHaveAttribute("aria-busy", "false");
    await expect(panel.locator(".svc-table-body .svc-table-row").first()).not.toHaveText(firstPage!);
    // Sorting asks the server again and starts from the first page.
    await panel.locator('[role="columnheader"]').filter({ hasText: "Order ID" }).getByRole("button").click();
    await expect(panel.getByTestId("drilldown-range")).toHaveText(/^1–50$/);
    await expect(panel).toHaveAttribute("data-state", "ready");
    // The rows of the new order are in (the previous ones stay on screen while it is asked for).
    await expect(panel).toHaveAttribute("aria-busy", "false");
    const headers = await panel.locator('[role="columnheader"]').allTextContents();
    const column = headers.indexOf("Order ID");
    const ids = (
      await panel
        .locator(".svc-table-body .svc-table-row")
        .evaluateAll((rows, column) => rows.map((r) => r.querySelectorAll('[role="cell"]')[column]?.textContent ?? ""), column)
    )
      .map((t) => Number(t.replace(/\D/g, "")))
      .filter((n) => n > 0);
    expect(ids.length).toBeGreaterThan(3);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // Downloads under the export gate.
    const download = page.waitForEvent("download");
    await panel.getByRole("button", { name: "Download CSV" }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  });

  test("the map draws land from the platform's own Natural Earth file, with a legend", async ({ page }) => {
    const external: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (!["localhost", "127.0.0.1"].includes(url.hostname) && url.protocol !== "data:") external.push(r.url());
    });
    const geo = page.waitForResponse((r) => /countries-110m.*\.json$/.test(r.url()) && r.status() === 200);
    await open(page);
    const map = page.frameLocator("#embed").getByTestId("widget-customer_map");
    await map.scrollIntoViewIfNeeded();
    await geo;
    await expect(map).toHaveAttribute("data-state", "ready");
    // Land (#e3e7ee in light) covers a good share of the map's drawing.
    await expect
      .poll(async () => {
        const { counts, total } = await countChartColours(page, "customer_map", ["#e3e7ee"]);
        return total ? counts[0]! / total : 0;
      })
      .toBeGreaterThan(0.1);
    expect(external).toEqual([]);
  });

  test("a category keeps its colour when a filter leaves it alone on the chart", async ({ page }) => {
    await open(page);
    const frame = page.frameLocator("#embed");
    const count = async () => (await countChartColours(page, "orders_by_status", ["#0ea5e9"])).counts[0]!;
    await frame.getByTestId("widget-orders_by_status").scrollIntoViewIfNeeded();
    await expect.poll(count).toBeGreaterThan(500);
    expect((await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.status={"value":["completed"]}' })).status).toBe("applied");
    await expect(frame.getByTestId("widget-orders_by_status")).toHaveAttribute("data-state", "ready");
    // "completed" alone: still sky, the whole ring (not the brand colour it used to become).
    await expect.poll(count).toBeGreaterThan(2000);
  });

  test("period comparisons read naturally in German and Japanese", async ({ page }) => {
    await open(page);
    const compare = page.frameLocator("#embed").getByTestId("widget-kpi_revenue").locator(".svc-kpi-compare");
    await expect(compare).toHaveText(/^vs\. \$[\d,]+ last year$/);
    expect((await requestAction(page, "svc:action:set-locale", { locale: "de-DE" })).status).toBe("applied");
    await expect(compare).toHaveText(/^Letztes Jahr: [\d.]+\s\$$/);
    expect((await requestAction(page, "svc:action:set-locale", { locale: "ja-JP" })).status).toBe("applied");
    await expect(compare).toHaveText(/^昨年: /);
  });
});
