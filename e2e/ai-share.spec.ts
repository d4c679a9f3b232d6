import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { getDemoConfig, openChatInHost, requestAction } from "./support/embed-harness";

/**
 * Sharing a conversation on the chat surface, framed on another origin: an acme user shares
 * a thread; another acme user finds it under "Shared with you" and reads it read-only, with
 * its table computed for them; a globex user never sees it.
 */
async function openChat(page: Page, body: Record<string, unknown>, size = { width: 1100, height: 760 }) {
  const { deploymentId } = await getDemoConfig(page.request);
  const res = await page.request.post(`${E2E.platformUrl}/api/v1/embed/generate-session`, {
    headers: { authorization: `Bearer ${E2E.adminToken}` },
    data: { deploymentId, ...body },
  });
  expect(res.status(), await res.text()).toBe(200);
  return openChatInHost(page, ((await res.json()) as { sessionId: string }).sessionId, {}, size);
}

const id = () => randomBytes(4).toString("hex");
/**
 * Each test shares a thread of its own question (the tenant's "Shared with you" lists every
 * thread shared in it during the run); a question, not a made-up word: a word the data does not
 * hold is answered as unknown, with no table.
 */
const QUESTIONS = { owner: "units sold by category", light: "revenue by category", dark: "orders by category", phone: "revenue by country" } as const;

/** Resolves once the page's chat surface has loaded the conversations shared with its viewer. */
const sharedListLoaded = (page: Page) => page.waitForResponse((r) => r.url().includes("/chat/shared-threads") && r.ok());

test.describe("chat: shared conversations", () => {
  test("an acme user shares a conversation; another acme user reads it read-only; globex never sees it", async ({ browser }) => {
    const title = QUESTIONS.owner;
    const owner = await browser.newPage();
    const ann = await openChat(owner, { externalId: `ann-${id()}@acme.example`, embedTenantName: "acme-corp" });
    await ann.getByTestId("chat-input").fill(title);
    await ann.getByTestId("chat-send").click();
    await expect(ann.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "completed");
    const share = ann.getByTestId("chat-share");
    await expect(share).toHaveAttribute("aria-pressed", "false");
    await share.click();
    await expect(share).toHaveAttribute("aria-pressed", "true");
    await expect(share).toHaveText(/Shared/);

    const bobId = `bob-${id()}@acme.example`;
    const reader = await browser.newPage();
    const bob = await openChat(reader, { externalId: bobId, embedTenantName: "acme-corp" });
    const shared = bob.getByTestId("chat-shared-with-me");
    await shared.getByRole("button", { name: title, exact: true }).first().click();
    await expect(bob.getByTestId("chat-read-only")).toBeVisible();
    await expect(bob.getByTestId("chat-input")).toHaveCount(0);
    await expect(bob.getByTestId("chat-share")).toHaveCount(0);
    const answer = bob.getByTestId("chat-answer").last();
    await expect(answer.getByTestId("chat-table")).toBeVisible();
    await expect(answer.getByTestId("chat-chart").locator(".svc-chart-canvas svg")).toBeVisible();
    // The owner's words never reach the reader.
    await expect(answer).not.toContainText("I read this as");

    const other = await browser.newPage();
    const othersLoaded = sharedListLoaded(other);
    const gus = await openChat(other, { externalId: `gus-${id()}@globex.example`, embedTenantName: "globex-inc" });
    await othersLoaded;
    await expect(gus.getByTestId("chat-panel")).toBeVisible();
    await expect(gus.getByTestId("chat-shared-with-me").getByText(title)).toHaveCount(0);

    // Shared no more: the reader's list drops it on the next load.
    await share.click();
    await expect(share).toHaveAttribute("aria-pressed", "false");
    const later = await browser.newPage();
    const laterLoaded = sharedListLoaded(later);
    const again = await openChat(later, { externalId: bobId, embedTenantName: "acme-corp" });
    await laterLoaded;
    await expect(again.getByTestId("chat-panel")).toBeVisible();
    await expect(again.getByTestId("chat-shared-with-me").getByText(title)).toHaveCount(0);
  });

  for (const [name, scheme, size] of [
    ["light", "light", { width: 1100, height: 760 }],
    ["dark", "dark", { width: 1100, height: 760 }],
    ["phone", "light", { width: 390, height: 760 }],
  ] as const) {
    test(`looks finished (${name})`, async ({ browser }) => {
      const title = QUESTIONS[name];
      const owner = await browser.newPage();
      const ann = await openChat(owner, { externalId: `ann-${id()}@acme.example`, embedTenantName: "acme-corp" }, size);
      if (scheme === "dark") expect((await requestAction(owner, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
      await ann.getByTestId("chat-input").fill(title);
      await ann.getByTestId("chat-send").click();
      await expect(ann.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "completed");
      await ann.getByTestId("chat-share").click();
      await expect(ann.getByTestId("chat-share")).toHaveAttribute("aria-pressed", "true");
      const shots = process.env.SVC_SCREENSHOTS;
      await owner.waitForTimeout(300);
      if (shots && shots !== "1") await owner.locator("#embed").screenshot({ path: `${shots}/chat-share-owner-${name}.png` });

      const reader = await browser.newPage();
      const bob = await openChat(reader, { externalId: `bob-${id()}@acme.example`, embedTenantName: "acme-corp" }, size);
      if (scheme === "dark") expect((await requestAction(reader, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
      if (name === "phone") await bob.getByRole("button", { name: "Conversations" }).click();
      await bob.getByTestId("chat-shared-with-me").getByRole("button", { name: title, exact: true }).first().click();
      await expect(bob.getByTestId("chat-answer").last().getByTestId("chat-chart").locator(".svc-chart-canvas svg")).toBeVisible();
      await reader.waitForTimeout(300);
      if (shots) await reader.locator("#embed").screenshot({ path: `${shots === "1" ? "docs/screenshots" : shots}/chat-shared-${name}.png` });
    });
  }
});
