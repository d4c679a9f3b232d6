import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { createSession, eventsOf, getDemoConfig, openChatInHost, requestAction, waitForEvent } from "./support/embed-harness";

/** Opens host.html (another origin) framing the chat surface of a fresh signed session. */
async function openChat(page: Page, params: Record<string, string> = {}, size = { width: 1100, height: 760 }) {
  return openChatInHost(page, await createSession(page.request), params, size);
}

test.describe("analytics chat", () => {
  test("answers a question end to end on another origin, with ai-query events", async ({ page }) => {
    const frame = await openChat(page);
    await expect(frame.getByTestId("chat-starters")).toBeVisible();
    await frame.getByTestId("chat-input").fill("top 5 cities by revenue last quarter");
    await frame.getByTestId("chat-send").click();

    const submitted = await waitForEvent(page, "svc:event:ai-query", { payload: { status: "submitted" } });
    expect(submitted.surface).toBe("chat");
    expect(submitted.payload.query).toBe("top 5 cities by revenue last quarter");
    expect(typeof submitted.payload.chatId).toBe("string");
    const completed = await waitForEvent(page, "svc:event:ai-query", { payload: { status: "completed" } });
    expect(completed.payload.chatId).toBe(submitted.payload.chatId);

    const answer = frame.getByTestId("chat-answer").last();
    await expect(answer).toHaveAttribute("data-status", "completed");
    await expect(answer.getByTestId("chat-table").locator("tbody tr")).toHaveCount(5);
    await expect(answer.getByTestId("chat-chart").locator(".svc-chart-canvas svg")).toBeVisible();
    await expect(answer).toContainText("I read this as");
    await expect(answer.getByTestId("chat-steps")).toContainText("run_query");
    // The thread is in the history, and a follow-up suggestion asks the next question.
    await expect(frame.getByTestId("chat-history")).toContainText("top 5 cities by revenue");
    await answer.getByTestId("chat-suggestions").getByRole("button").first().click();
    await expect(frame.getByTestId("chat-answer")).toHaveCount(2);
    await expect(frame.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "completed");
    const events = await eventsOf(page, "svc:event:ai-query");
    expect(events.map((e) => e.payload.status)).toEqual(["submitted", "completed", "submitted", "completed"]);
  });

  test("hides the input, history and new chat with the URL switches", async ({ page }) => {
    const frame = await openChat(page, { showChatInput: "false", showChatHistory: "false", showNewChat: "false" });
    await expect(frame.getByTestId("chat-panel")).toBeVisible();
    await expect(frame.getByTestId("chat-input")).toHaveCount(0);
    await expect(frame.getByTestId("chat-history")).toHaveCount(0);
    await expect(frame.getByTestId("chat-new")).toHaveCount(0);
  });

  for (const [name, scheme, size] of [
    ["light", "light", { width: 1100, height: 760 }],
    ["dark", "dark", { width: 1100, height: 760 }],
    ["phone", "light", { width: 390, height: 760 }],
  ] as const) {
    test(`looks finished (${name})`, async ({ page }) => {
      const frame = await openChat(page, {}, size);
      if (scheme === "dark") expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
      await frame.getByTestId("chat-input").fill(name === "phone" ? "revenue by category" : "revenue by country last quarter");
      await frame.getByTestId("chat-send").click();
      await expect(frame.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "completed");
      await expect(frame.getByTestId("chat-chart").locator(".svc-chart-canvas svg")).toBeVisible();
      if (name === "phone") {
        // The conversations slide in over the answer on a toggle; closed, they are out of sight and out of the tab order.
        const history = frame.getByTestId("chat-history");
        await expect(history).toBeHidden();
        await frame.locator(".svc-chat-history-toggle").click();
        await expect(history).toBeVisible();
        await expect(history).toContainText("revenue by category");
        await history.locator(".svc-chat-history-close").click();
        await expect(history).toBeHidden();
      }
      await page.waitForTimeout(400);
      // docs/screenshots are rewritten only on request (SVC_SCREENSHOTS=1), so a test run leaves the tree clean.
      if (process.env.SVC_SCREENSHOTS) await page.locator("#embed").screenshot({ path: `docs/screenshots/chat-${name}.png` });
    });
  }

  test("a session with allowAi: false is refused by the server", async ({ page }) => {
    const { deploymentId } = await getDemoConfig(page.request);
    const gen = await page.request.post(`${E2E.platformUrl}/api/v1/embed/generate-session`, {
      headers: { authorization: `Bearer ${E2E.adminToken}` },
      data: { deploymentId, externalId: "no-ai@acme.example", embedTenantName: "acme-corp", settings: { allowAi: false } },
    });
    const { sessionId } = (await gen.json()) as { sessionId: string };
    const token = await page.request.post(`${E2E.platformUrl}/api/v1/embed/session/token`, { data: { sessionId } });
    const { token: bearer } = (await token.json()) as { token: string };
    const res = await page.request.post(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/chat/threads`, {
      headers: { authorization: `Bearer ${bearer}` },
      data: {},
    });
    expect(res.status()).toBe(403);
  });
});
