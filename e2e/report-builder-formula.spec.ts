import { expect, test, type FrameLocator, type Page, type Response } from "@playwright/test";
import { eventsOf, requestAction } from "./support/embed-harness";
import { newReportInApp } from "./support/report-builder";

// A calculated field made in the report builder's formula editor: completion of a member, the
// problem shown at its position, Add; the field is a column of the report whose values are the
// revenue and order counts of the same rows divided, and it is saved with the report (and
// recorded in its workbook's calculatedFields). With
// SVC_SCREENSHOTS=1 the editor is shot (an error, completions) in light and dark at desktop and
// phone widths into docs/screenshots/.

const DESKTOP = { width: 1200, height: 800 };
const PHONE = { width: 390, height: 844 };
const SHOTS = !!process.env.SVC_SCREENSHOTS;

type Row = Record<string, string | number | null>;

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const scheme of ["light", "dark"] as const) {
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme })).status).toBe("applied");
    await page.waitForTimeout(300);
    await page.screenshot({ path: `docs/screenshots/${name}-${scheme}.png` });
  }
}

/** Revenue and orders by category, and the editor open on a new field. */
async function openEditor(page: Page, size: { width: number; height: number }, workbook: string) {
  const opened = await newReportInApp(page, size, { workbook, report: "Revenue per order" });
  const { app, builder, result } = opened;
  await builder.locator('input[data-member="sales.revenue"]').check();
  await builder.locator('input[data-member="sales.count"]').check();
  await builder.getByRole("button", { name: "+ Breakout" }).click();
  await app.getByRole("combobox", { name: "Breakout 1" }).selectOption("sales.products_category");
  await expect(result.locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
  await app.getByTestId("add-calculated-field").click();
  const editor = app.getByTestId("formula-editor");
  await editor.getByTestId("formula-name").fill("Revenue per order");
  return { ...opened, editor, input: editor.getByTestId("formula-input") };
}

/** Types a formula that ends too early, then a word whose completions are open. */
async function typeWithErrorAndCompletions(
  page: Page,
  editor: ReturnType<FrameLocator["getByTestId"]>,
  input: ReturnType<FrameLocator["getByTestId"]>,
  shot: string,
) {
  await input.pressSequentially("revenue / ");
  await expect(editor.getByTestId("formula-error")).toContainText("This formula cannot be read — at character 11");
  await expect(editor.getByTestId("formula-error")).toHaveAttribute("data-position", "10");
  await shoot(page, `${shot}-error`);
  await input.pressSequentially("ord");
  const options = editor.getByTestId("formula-completions").getByRole("option");
  // "ord" starts a word of the titles Orders (count), Average Order Value, Completed Orders, Order ID and Order Date.
  await expect(options.first()).toHaveAttribute("data-insert", "count");
  await expect(options).toHaveCount(5);
  await shoot(page, `${shot}-completions`);
}

test("report builder: a calculated field made in the formula editor is a column with the expected values, saved with the report", async ({ page }) => {
  test.setTimeout(120_000);
  const { app, result, saves, editor, input } = await openEditor(page, DESKTOP, "Formula");
  const answers: Response[] = [];
  const workbookWrites: Response[] = [];
  page.on("response", (r) => {
    if (r.request().method() === "PUT" && /\/workbooks\/\d+$/.test(new URL(r.url()).pathname)) workbookWrites.push(r);
    if (r.request().method() === "POST" && /\/query$/.test(new URL(r.url()).pathname) && (r.request().postData() ?? "").includes("revenue_per_order"))
      answers.push(r);
  });

  await typeWithErrorAndCompletions(page, editor, input, "creator-formula");
  await input.press("Enter");
  await expect(input).toHaveValue("revenue / count");
  await expect(editor.getByTestId("formula-error")).toHaveCount(0);
  await expect(editor.getByTestId("formula-kind")).toHaveText("A measure: one number per group");
  await editor.getByTestId("formula-add").click();
  await expect(app.getByTestId("formula-editor")).toHaveCount(0);
  await expect(app.getByTestId("calculated-field")).toContainText("Revenue per order");

  // The column's values: each category's revenue divided by its orders, as the same rows hold them.
  await expect.poll(() => answers.length, { timeout: 30_000 }).toBeGreaterThan(0);
  const body = (await answers.at(-1)!.json()) as { data: Row[]; annotation: { measures: Record<string, { title: string }> } };
  expect(body.annotation.measures["sales.revenue_per_order"]?.title).toBe("Revenue per order");
  expect(body.data.length).toBeGreaterThan(1);
  for (const row of body.data) {
    const expected = Number(row["sales.revenue"]) / Number(row["sales.count"]);
    expect(Number(row["sales.revenue_per_order"])).toBeCloseTo(expected, 6);
  }
  await app.getByTestId("viz-table").click();
  await expect(result.locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
  await expect(result.getByRole("columnheader", { name: "Revenue per order" })).toBeVisible();

  // Saved with the report: the field's definition in its query, the column among the measures.
  await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
  const saved = saves.map((r) => r.postDataJSON() as { query?: { measures?: string[]; calculatedFields?: unknown[] } }).at(-1);
  expect(saved?.query?.measures).toContain("sales.revenue_per_order");
  expect(saved?.query?.calculatedFields).toEqual([{ name: "revenue_per_order", formula: "revenue / count", title: "Revenue per order" }]);
  // And recorded in the workbook, beside the fields its reports may use (spec 2.2).
  await expect.poll(() => workbookWrites.length, { timeout: 15_000 }).toBeGreaterThan(0);
  expect(workbookWrites[0]!.status()).toBe(200);
  expect(((await workbookWrites[0]!.json()) as { calculatedFields?: unknown }).calculatedFields).toEqual({
    "sales.revenue_per_order": { formula: "revenue / count", title: "Revenue per order" },
  });
  expect(await eventsOf(page, "svc:event:error")).toEqual([]);
  await shoot(page, "creator-formula-added");
});

test("report builder formula editor screenshots on a phone", async ({ page }) => {
  test.skip(!SHOTS, "set SVC_SCREENSHOTS=1 to write docs/screenshots");
  test.setTimeout(120_000);
  const { editor, input } = await openEditor(page, PHONE, "Formula phone");
  await typeWithErrorAndCompletions(page, editor, input, "creator-formula-phone");
});
