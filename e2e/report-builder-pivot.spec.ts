import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { eventsOf, requestAction } from "./support/embed-harness";
import { newReportInApp } from "./support/report-builder";
import { shotsDir } from "./support/shots";

// Revenue by country and category, pivoted, through the real app and server: two breakouts (a
// third added and left unpicked), the pivot suggested and shown with row, column and grand totals,
// percent of total, then Q2 2025 against the quarter before. The totals are checked against the
// cells on screen; the queries and the save against the query contract. Screens of the builder
// in light and dark at 1440 and 390 px go to $SVC_SHOTS_DIR/report-pivot/ (npm run test:shots).

const OUT = shotsDir("report-pivot");

async function shoot(page: Page, app: FrameLocator, name: string) {
  if (!OUT) return;
  for (const scheme of ["light", "dark"] as const) {
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme })).status).toBe("applied");
    await page.waitForTimeout(300);
    await app.getByTestId("pivot-view").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${OUT}/${name}-${scheme}.png`, fullPage: true });
  }
}

/** A number as the pivot shows it ("€1,234.50", "37.5%", "–"): null for a dash. */
function amountOf(text: string): number | null {
  const digits = text.replace(/[^\d.-]/g, "");
  return digits === "" || digits === "-" ? null : Number(digits);
}

async function rowTexts(row: ReturnType<FrameLocator["locator"]>) {
  return row.locator("th, td").allInnerTexts();
}

for (const [width, size] of [
  ["1440", { width: 1440, height: 900 }],
  ["390", { width: 390, height: 844 }],
] as const) {
  test(`report builder: revenue by country and category pivoted with totals, percent of total and the previous quarter (${width} px)`, async ({ page }) => {
    test.setTimeout(180_000);
    const { app, builder, result, saves, queries } = await newReportInApp(page, size, {
      workbook: `Pivot ${width}`,
      report: "Revenue by country and category",
    });
    await builder.locator('input[data-member="sales.revenue"]').check();

    // Two breakouts, and a third not picked yet: marked, and in no query.
    await builder.getByRole("button", { name: "+ Breakout" }).click();
    await builder.getByRole("combobox", { name: "Breakout 1" }).selectOption("sales.customers_country");
    await builder.getByRole("button", { name: "+ Breakout" }).click();
    await builder.getByRole("combobox", { name: "Breakout 2" }).selectOption("sales.products_category");
    await builder.getByRole("button", { name: "+ Breakout" }).click();
    await expect(builder.getByTestId("breakout-incomplete")).toHaveText("incomplete — left out");

    // The pivot is suggested for two breakouts and shown, country down, category across.
    await expect(app.getByTestId("viz-suggested")).toHaveText("suggested: Pivot");
    await expect(app.getByTestId("viz-pivot")).toHaveAttribute("aria-checked", "true");
    await builder.getByTestId("percent-of-total").check();
    const pivot = result.getByTestId("pivot-view");
    await expect(pivot).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await expect(pivot.getByTestId("pivot-across")).toHaveValue("sales.products_category");
    const table = pivot.getByRole("table");
    await expect(table.locator("thead tr").nth(1).locator("th").first()).toHaveText("Revenue");
    await expect(table.locator("thead tr").nth(1).locator("th").nth(1)).toHaveText("Revenue, % of total");
    await expect(table.locator("thead th").first()).toHaveText("Country");
    await expect(table.locator('thead th[scope="colgroup"]').last()).toHaveText("Total");

    // Totals: each row's total is the sum of its cells, the grand total the sum of the row totals, the shares add up to 100 %.
    const bodyRows = table.locator("tbody tr");
    const rowCount = await bodyRows.count();
    expect(rowCount).toBeGreaterThan(1);
    let revenueTotal = 0;
    for (let i = 0; i < rowCount; i++) {
      const cells = (await rowTexts(bodyRows.nth(i))).slice(1).map(amountOf);
      const revenues = cells.filter((_, k) => k % 2 === 0);
      const rowTotal = revenues.at(-1)!;
      const sum = revenues.slice(0, -1).reduce<number>((a, b) => a + (b ?? 0), 0);
      expect(Math.abs(sum - rowTotal!)).toBeLessThan(1 + revenues.length);
      revenueTotal += rowTotal!;
    }
    const totals = (await rowTexts(table.getByTestId("pivot-totals"))).map((t) => t.trim());
    expect(totals[0]).toBe("Total");
    expect(totals.at(-1)).toBe("100%");
    expect(Math.abs(amountOf(totals.at(-2)!)! - revenueTotal)).toBeLessThan(1 + rowCount);
    for (const q of queries) expect(q.postData() ?? "").not.toContain('""');
    await expect
      .poll(() =>
        queries.some((q) => {
          const body = q.postDataJSON() as { query?: { dimensions?: string[]; calculations?: unknown[] } };
          return (
            JSON.stringify(body.query?.dimensions) === '["sales.customers_country","sales.products_category"]' &&
            JSON.stringify(body.query?.calculations) === '[{"type":"percentOfTotal","measure":"sales.revenue"}]'
          );
        }),
      )
      .toBe(true);
    await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
    await expect
      .poll(() => saves.some((r) => /"kind":"table"/.test(r.postData() ?? "") && /"pivot":\{"columns":"sales.products_category"\}/.test(r.postData() ?? "")))
      .toBe(true);
    await builder.getByRole("button", { name: "Remove breakout" }).last().click();
    await shoot(page, app, `pivot-share-${width}`);

    // Q2 2025 against the quarter before: the query contract's `compare`, its columns in words.
    await app.getByTestId("time-dimension").selectOption("sales.created_at");
    await app.getByTestId("time-grouping").selectOption("");
    await app.getByTestId("time-range").selectOption("custom");
    await app.getByTestId("time-range-start").fill("04/01/2025");
    await app.getByTestId("time-range-start").press("Enter");
    await app.getByTestId("time-range-end").fill("06/30/2025");
    await app.getByTestId("time-range-end").press("Enter");
    await builder.getByTestId("compare-mode").selectOption("previousPeriod");
    await expect(builder.getByTestId("compare-left-out")).toHaveCount(0);
    await expect
      .poll(() =>
        queries.some((q) =>
          (q.postData() ?? "").includes(
            '"compare":{"dimension":"sales.created_at","baseline":["2025-01-01","2025-03-31"],"current":["2025-04-01","2025-06-30"]}',
          ),
        ),
      )
      .toBe(true);
    await expect(pivot).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    const heads = table.locator("thead tr").nth(1).locator("th");
    await expect(heads.first()).toHaveText("Revenue, previous period");
    await expect(heads.nth(1)).toHaveText("Revenue, this period");
    await expect(heads.nth(3)).toHaveText("Revenue, change %");
    await expect(heads.nth(4)).toHaveText("Revenue, this period, % of total");
    await expect(table.getByTestId("pivot-totals").locator("td.is-none").first()).toHaveAttribute("title", "No total: not additive");
    await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
    await shoot(page, app, `pivot-compare-${width}`);
    expect(await eventsOf(page, "svc:event:error")).toEqual([]);
  });
}
