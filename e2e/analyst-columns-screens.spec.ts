import { expect, test, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { newReportInApp } from "./support/report-builder";
import { createSession, generateSession, getDemoConfig, openEmbedInHost, requestAction } from "./support/embed-harness";
import { shotsDir } from "./support/shots";

// Screens of the analyst's questions in the embed: a chat answer comparing two quarters and one
// with shares (their columns titled and formatted), and the report builder grouping by a part of
// time with a between filter; each in light and dark, at desktop and phone widths. The shots go
// to $SVC_SHOTS_DIR/analyst/ to be looked at (npm run test:shots); the assertions hold the formats.

const DESKTOP = { width: 1200, height: 800 };
const PHONE = { width: 390, height: 844 };
const OUT = shotsDir("analyst");

async function shoot(page: Page, name: string) {
  if (!OUT) return;
  for (const scheme of ["light", "dark"] as const) {
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme })).status).toBe("applied");
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}/${name}-${scheme}.png`, fullPage: true });
  }
}

async function ask(frame: FrameLocator | Locator, question: string) {
  await frame.getByTestId("chat-input").fill(question);
  await frame.getByTestId("chat-send").click();
  const answer = frame.getByTestId("chat-answer").last();
  await expect(answer).toHaveAttribute("data-status", "completed", { timeout: 45_000 });
  return answer;
}

for (const [width, size] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`chat answers with compare and share columns (${width})`, async ({ page }) => {
    test.setTimeout(150_000);
    const src = new URL("/embed/chat", E2E.platformUrl);
    src.searchParams.set("session", await createSession(page.request));
    const frame = await openEmbedInHost(page, src.toString(), size);
    // The header's title is whole at either width (on a phone its buttons are their icons).
    const title = frame.locator(".svc-chat-title span");
    await expect(title).toHaveText("Analytics chat");
    expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expect(frame.getByRole("button", { name: "New chat" })).toBeVisible();
    const compare = await ask(frame, "compare revenue by category in Q1 2025 with Q1 2024");
    const table = compare.getByTestId("chat-table");
    await expect(table).toBeVisible();
    // The periods by name, as a reader names them (semantic/column-labels.ts).
    await expect(table.locator("th")).toContainText(["Revenue (Q1 2024)", "Revenue (Q1 2025)", "Revenue (% change)"]);
    await expect(
      table
        .locator("td")
        .filter({ hasText: /^[+-]\d[\d.,]*%$/ })
        .first(),
    ).toBeVisible();
    await compare.scrollIntoViewIfNeeded();
    await shoot(page, `chat-compare-${width}`);
    const share = await ask(frame, "share of revenue by category");
    await expect(share.getByTestId("chat-table").locator("th")).toContainText(["% of total"]);
    await share.scrollIntoViewIfNeeded();
    await shoot(page, `chat-share-${width}`);
  });

  test(`a compare answer added to a workbook, as a table (${width})`, async ({ page }) => {
    test.setTimeout(150_000);
    const { deploymentId } = await getDemoConfig(page.request);
    const src = new URL(`/embed/d/${deploymentId}/app`, E2E.platformUrl);
    const body = { externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true, settings: { showWorkbookChat: true } };
    src.searchParams.set("session", await generateSession(page.request, body));
    const app = await openEmbedInHost(page, src.toString(), size);
    await app.getByTestId("new-workbook").click();
    await app.getByTestId("name-input").fill(`Quarters ${width} ${Date.now().toString(36)}`);
    await app.getByTestId("name-submit").click();
    await app.getByRole("button", { name: "Create a report" }).click();
    await app.getByTestId("name-input").fill("Scratch");
    await app.getByTestId("name-submit").click();
    await app.getByTestId("workbook-chat-toggle").click();
    const panel = app.getByTestId("workbook-chat-panel");
    const answer = await ask(panel, "compare revenue by category in Q1 2025 with Q1 2024");
    await answer.getByTestId("chat-add-to-workbook").click();
    await expect(app.getByTestId("app-toast")).toBeVisible();
    await panel.getByRole("button", { name: "Close" }).click();
    const result = app.getByTestId("report-result");
    await expect(result.locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
    await app.getByTestId("viz-table").click();
    // The builder titles the compared columns in the viewer's words.
    await expect(result.getByRole("columnheader", { name: /Revenue, change %/ })).toBeVisible();
    await expect(
      result
        .getByRole("cell")
        .filter({ hasText: /^\+\d[\d.,]*%$/ })
        .first(),
    ).toBeVisible();
    await shoot(page, `workbook-compare-table-${width}`);
  });

  test(`report builder: part of time and a between filter (${width})`, async ({ page }) => {
    test.setTimeout(150_000);
    const { app, builder } = await newReportInApp(page, size, { workbook: `Weekdays ${width}`, report: "Orders by weekday" });
    await builder.locator('input[data-member="sales.count"]').check();
    await app.getByTestId("time-dimension").selectOption("sales.created_at");
    await app.getByTestId("time-grouping").selectOption("part:dayOfWeek");
    await builder.getByRole("button", { name: "+ Filter" }).click();
    const filter = app.getByTestId("filter-row").last();
    await filter.getByRole("combobox", { name: "Filter member" }).selectOption("sales.amount");
    await filter.getByRole("combobox", { name: "Operator" }).selectOption("between");
    await filter.getByTestId("filter-low").fill("10");
    await filter.getByTestId("filter-high").fill("100");
    await filter.getByTestId("filter-high").blur();
    const result = app.getByTestId("report-result");
    // A part of time is suggested as bars; the table is picked.
    await expect(app.getByTestId("viz-bar")).toHaveAttribute("aria-checked", "true");
    await app.getByTestId("viz-table").click();
    await expect(result.locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
    await expect(result.getByText("Monday", { exact: true })).toBeVisible();
    await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
    await shoot(page, `builder-table-${width}`);
    await app.getByTestId("viz-bar").click();
    await expect(result.locator("canvas, svg").first()).toBeVisible({ timeout: 30_000 });
    await page.waitForTimeout(1500);
    await shoot(page, `builder-chart-${width}`);
    await filter.scrollIntoViewIfNeeded();
    await shoot(page, `builder-filter-${width}`);
  });
}
