import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { dashboardUrl, getDemoConfig, openEmbedInHost, requestAction, waitForEvent } from "./support/embed-harness";

async function openDashboard(page: Page, settings: Record<string, unknown>) {
  const config = await getDemoConfig(page.request);
  const gen = await page.request.post(`${E2E.platformUrl}/api/v1/embed/generate-session`, {
    headers: { authorization: `Bearer ${E2E.adminToken}` },
    data: { deploymentId: config.deploymentId, externalId: "ada@acme.example", embedTenantName: "acme-corp", settings },
  });
  expect(gen.status()).toBe(200);
  const { sessionId } = (await gen.json()) as { sessionId: string };
  const frame = await openEmbedInHost(page, dashboardUrl(config.dashboardPublicId, sessionId, {}), { width: 1240, height: 860 });
  await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
  return frame;
}

test.describe("AI on the dashboard", () => {
  test("dashboard chat answers about the dashboard in view, with its filters, and sends ai-query", async ({ page }) => {
    const frame = await openDashboard(page, { showDashboardChat: true });
    await frame.getByTestId("dashboard-chat-open").click();
    const drawer = frame.getByTestId("chat-drawer");
    await expect(drawer).toBeVisible();
    await drawer.getByTestId("chat-input").fill("revenue by category");
    await drawer.getByTestId("chat-send").click();
    const submitted = await waitForEvent(page, "svc:event:ai-query", { payload: { status: "submitted" } });
    expect(submitted.surface).toBe("dashboard");
    await waitForEvent(page, "svc:event:ai-query", { payload: { status: "completed" } });
    await expect(drawer.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "completed");
    await expect(drawer.getByTestId("chat-table").locator("tbody tr")).toHaveCount(6);
    // docs/screenshots are rewritten only on request (SVC_SCREENSHOTS=1), so a test run leaves the tree clean.
    if (process.env.SVC_SCREENSHOTS) await page.locator("#embed").screenshot({ path: "docs/screenshots/dashboard-chat.png" });

    // A dashboard filter narrows the chat's queries too.
    const applied = await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.customers_country={"value":["CA"]}' });
    expect(applied.status, applied.reason).toBe("applied");
    await drawer.getByTestId("chat-input").fill("revenue by country");
    await drawer.getByTestId("chat-send").click();
    await expect(drawer.getByTestId("chat-answer")).toHaveCount(2);
    await expect(drawer.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "completed");
    await expect(drawer.getByTestId("chat-answer").last().getByTestId("chat-table").locator("tbody tr")).toHaveCount(1);
    // The country by its name, as the dashboard's own tables show it (the row keeps the code).
    await expect(drawer.getByTestId("chat-answer").last().getByTestId("chat-table")).toContainText("Canada");
  });

  test("no dashboard chat without showDashboardChat", async ({ page }) => {
    const frame = await openDashboard(page, {});
    await expect(frame.getByTestId("dashboard")).toBeVisible();
    await expect(frame.getByTestId("dashboard-chat-open")).toHaveCount(0);
  });

  test("the AI widget writes from the dashboard's data, writes again for new filters saying which, and regenerates", async ({ page }) => {
    const frame = await openDashboard(page, {});
    const widget = frame.getByTestId("widget-ask");
    await expect(widget).toHaveAttribute("data-state", "ready");
    const answer = widget.getByTestId("ai-answer-ask");
    await expect(answer).toContainText("Which category had the most revenue last quarter?");
    await expect(answer).toContainText("leads Revenue with");
    await expect(answer.locator("li").first()).toBeVisible();
    await widget.scrollIntoViewIfNeeded();
    // docs/screenshots are rewritten only on request (SVC_SCREENSHOTS=1), so a test run leaves the tree clean.
    if (process.env.SVC_SCREENSHOTS) await widget.screenshot({ path: "docs/screenshots/ai-widget.png" });

    const applied = await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.customers_country={"value":["US"]}' });
    expect(applied.status, applied.reason).toBe("applied");
    // Not the old answer marked stale: one written for these filters, naming them.
    await expect(answer).toContainText("United States");
    await expect(answer.locator("em").first()).toContainText(/^For .*United States\.$/);
    await expect(answer).toHaveAttribute("data-stale", "false");
    await expect(widget.getByTestId("ai-stale")).toHaveCount(0);
    await widget.getByTestId("ai-regenerate").click();
    await expect(answer).toContainText("United States");
    await expect(answer).toHaveAttribute("data-stale", "false");
  });
});
