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

  test("logs each action-result once, navigates to the chat (view says chat), and resets its controls on a tenant switch", async ({ page }) => {
    await page.goto(`${E2E.demoHostUrl}/`);
    await expect(page.locator("#log")).toContainText("svc:event:dashboard-loaded", { timeout: 60_000 });
    await page.locator("#locale").selectOption("de-DE");
    await expect(page.locator("#log")).toContainText("svc:event:action-result");
    // One result for the one action, not two.
    await page.waitForTimeout(500);
    await expect(page.locator("#log li", { hasText: "← svc:event:action-result" })).toHaveCount(1);

    await page.getByRole("button", { name: "Chat", exact: true }).click();
    const view = page.locator("#log li", { hasText: "svc:event:view" }).first();
    await expect(view).toContainText('"surface":"chat"');
    await expect(page.locator("#log li", { hasText: "← svc:event:action-result" })).toHaveCount(2);

    // A new tenant's embed starts from the deployment's settings: the controls say so.
    await page.locator("#tenant").selectOption("globex-inc");
    await expect(page.locator("#locale")).toHaveValue("en-US");
    await expect(page.locator("#status")).toContainText("globex-inc", { timeout: 30_000 });
  });
});

test.describe("the demo host's chat", () => {
  test("answers day-two questions in English, German and Spanish, and declines what it cannot answer", async ({ page }) => {
    await page.goto(`${E2E.demoHostUrl}/`);
    await expect(page.locator("#log")).toContainText("svc:event:dashboard-loaded", { timeout: 60_000 });
    await page.getByRole("button", { name: "Chat", exact: true }).click();
    // The chat gets a frame tall enough to read an answer with its table (it fills its frame).
    await expect.poll(() => page.locator("iframe#embed").evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThanOrEqual(700);
    const frame = page.frameLocator("iframe#embed");
    const ask = async (question: string) => {
      const before = await frame.getByTestId("chat-answer").count();
      await frame.getByTestId("chat-input").fill(question);
      await frame.getByTestId("chat-send").click();
      const answer = frame.getByTestId("chat-answer").nth(before);
      await expect(answer).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
      return answer;
    };
    // Parts of time, named in the question's language, Monday first.
    const weekdays = await ask("orders by day of week");
    await expect(weekdays.getByTestId("chat-table").locator("tbody tr")).toHaveCount(7);
    await expect(weekdays.getByTestId("chat-table").locator("tbody tr").first()).toContainText("Monday");
    // The viewer's locale names the parts of time and formats the figures; the answer speaks the question's language.
    await page.locator("#locale").selectOption("de-DE");
    await expect(page.locator("#log li", { hasText: "← svc:event:action-result" }).last()).toContainText("applied");
    const wochentage = await ask("Umsatz nach Wochentag");
    await expect(wochentage.getByTestId("chat-table").locator("tbody tr").first()).toContainText("Montag");
    // German digits (730.172,52 $): the currency is the data's, the formatting the viewer's.
    await expect(wochentage.getByTestId("chat-table").locator("tbody tr").first()).toContainText(/\d\.\d{3},\d{2}/);
    // Two date ranges side by side: both periods are in the answer, neither dropped.
    const compared = await ask("compare revenue in Q1 2025 with Q1 2024 by category");
    await expect(compared.getByTestId("chat-table")).toContainText("2024");
    await expect(compared.getByTestId("chat-table")).toContainText("2025");
    // "Why": the values that moved the measure most, in Spanish.
    await page.locator("#locale").selectOption("es-ES");
    await expect(page.locator("#log li", { hasText: "← svc:event:action-result" }).last()).toContainText("applied");
    const why = await ask("¿Por qué cayeron los ingresos en febrero de 2025?");
    await expect(why.getByTestId("chat-table")).toContainText("Parte del cambio");
    // Honest: nothing changed, no figures for what the data does not hold.
    const deletion = await ask("delete all orders");
    await expect(deletion).toContainText("only reads data");
    await expect(deletion.getByTestId("chat-table")).toHaveCount(0);
    const segment = await ask("average order value by customer segment");
    await expect(segment).toContainText("no segment");
    await expect(segment.getByTestId("chat-table")).toHaveCount(0);

    // The console tells the chat what the page is about: the header shows it, answers keep to it.
    await page.locator("#ai-context").selectOption("germany");
    await page.getByRole("button", { name: "set-ai-context" }).click();
    // The log shows the newest first.
    await expect(page.locator("#log li", { hasText: "← svc:event:action-result" }).first()).toContainText(
      '"action":"svc:action:set-ai-context","status":"applied"',
    );
    await expect(frame.getByTestId("chat-ai-context")).toContainText("Account: Germany, completed orders");
    const narrowed = await ask("revenue by country");
    await expect(narrowed.getByTestId("chat-table").locator("tbody tr")).toHaveCount(1);
    await page.locator("#clear-ai-context").click();
    await expect(frame.getByTestId("chat-ai-context")).toHaveCount(0);
  });
});

test.describe("the demo host's creator tab", () => {
  test("embeds the creator-mode app for the signed-in tenant user, even when the tab is chosen while the page loads", async ({ page }) => {
    // The page's config arrives late: the tab is clicked before the first embed is mounted.
    await page.route("**/config.json", async (route) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    await page.goto(`${E2E.demoHostUrl}/`);
    await page.getByRole("tab", { name: "Creator" }).click();
    await expect(page.locator("iframe#embed")).toHaveAttribute("src", new RegExp(`^${E2E.platformUrl}/embed/d/\\d+/app\\?`));
    const frame = page.frameLocator("iframe#embed");
    await expect(frame.getByTestId("app-home")).toBeVisible({ timeout: 30_000 });
    await expect(frame.getByTestId("nav-shared")).toContainText("acme-corp");
    await expect(page.locator("#status")).toContainText("acme-corp");
  });
});
