import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type FrameLocator, type Locator, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { dashboardUrl, getDemoConfig, openChatInHost, openEmbedInHost, requestAction, waitForEvent } from "./support/embed-harness";

/**
 * "Save as report" on the chat surface, framed by a host page on another origin: an embed
 * creator whose session allows `allowChatWorkspaceAuthoring` saves an answer (the builtin
 * engine's, no model) into their tenant's shared space; without the setting there is no button
 * and the platform refuses the save.
 */
async function signedSession(request: APIRequestContext, body: Record<string, unknown>) {
  const { deploymentId } = await getDemoConfig(request);
  const res = await request.post(`${E2E.platformUrl}/api/v1/embed/generate-session`, {
    headers: { authorization: `Bearer ${E2E.adminToken}` },
    data: { deploymentId, embedTenantName: "acme-corp", ...body },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { deploymentId, sessionId: ((await res.json()) as { sessionId: string }).sessionId };
}

/** A bearer token of a session of its own (a session id is exchanged by the frame that opens it). */
async function bearerOf(request: APIRequestContext, body: Record<string, unknown>) {
  const { sessionId } = await signedSession(request, body);
  const res = await request.post(`${E2E.platformUrl}/api/v1/embed/session/token`, { data: { sessionId } });
  return ((await res.json()) as { token: string }).token;
}

const openChat = (page: Page, sessionId: string, size = { width: 1100, height: 760 }) => openChatInHost(page, sessionId, {}, size);

async function ask(scope: FrameLocator | Locator, question: string) {
  await scope.getByTestId("chat-input").fill(question);
  await scope.getByTestId("chat-send").click();
  const answer = scope.getByTestId("chat-answer").last();
  await expect(answer).toHaveAttribute("data-status", "completed");
  return answer;
}

const creator = () => ({
  externalId: `saver-${randomBytes(4).toString("hex")}@acme.example`,
  creatorMode: true,
  settings: { allowChatWorkspaceAuthoring: true },
});

test.describe("chat: save as report", () => {
  test("an embed creator saves an answer into the tenant's shared space, from another origin", async ({ page }) => {
    const who = creator();
    const { deploymentId, sessionId } = await signedSession(page.request, who);
    const frame = await openChat(page, sessionId);
    const answer = await ask(frame, "revenue by category");
    await answer.getByTestId("chat-save-report").click();

    const dialog = frame.getByTestId("chat-save-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("chat-save-name")).toHaveValue("revenue by category");
    await dialog.getByTestId("chat-save-name").fill("Revenue by category (chat)");
    await dialog.getByTestId("chat-save-destination").selectOption({ label: "Shared" });
    await expect(dialog).toContainText("A new workbook is created");
    await dialog.getByTestId("chat-save-submit").click();
    await expect(dialog.getByTestId("chat-save-done")).toHaveText(/Saved to Shared › Revenue by category \(chat\)/);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(answer.getByTestId("chat-save-report")).toHaveText(/Saved as report/);

    // The report is in the tenant's shared space with the answer's query, for another creator of the tenant too.
    const other = await bearerOf(page.request, creator());
    const headers = { authorization: `Bearer ${other}` };
    const search = await page.request.get(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/app/search?q=${encodeURIComponent("(chat)")}`, { headers });
    const found = (await search.json()) as { items: { type: string; id: number; name: string }[] };
    const report = found.items.find((r) => r.type === "REPORT" && r.name === "Revenue by category (chat)");
    expect(report).toBeTruthy();
    const full = await (await page.request.get(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/reports/${report!.id}`, { headers })).json();
    expect(full.query).toMatchObject({ measures: ["sales.revenue"], dimensions: ["sales.products_category"] });
    expect(full.kind).toBe("vega");

    // A second answer goes into that workbook as a new sheet.
    const second = await ask(frame, "orders by status");
    await second.getByTestId("chat-save-report").click();
    await dialog.getByTestId("chat-save-destination").selectOption({ label: "Shared / Revenue by category (chat)" });
    await expect(dialog).toContainText("added to the workbook as a new sheet");
    await dialog.getByTestId("chat-save-submit").click();
    await expect(dialog.getByTestId("chat-save-done")).toHaveText(/Saved to Shared › Revenue by category \(chat\)/);
  });

  test("shows why a save failed", async ({ page }) => {
    const who = creator();
    const token = await bearerOf(page.request, who);
    const { deploymentId, sessionId } = await signedSession(page.request, who);
    const headers = { authorization: `Bearer ${token}` };
    const folder = await page.request.post(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/folders`, { headers, data: { name: "Soon gone" } });
    expect(folder.status()).toBe(201);
    const folderId = ((await folder.json()) as { id: number }).id;

    const frame = await openChat(page, sessionId);
    const answer = await ask(frame, "total revenue");
    await answer.getByTestId("chat-save-report").click();
    const dialog = frame.getByTestId("chat-save-dialog");
    await dialog.getByTestId("chat-save-destination").selectOption({ label: "Soon gone" });
    // The folder is deleted while the dialog is open.
    expect((await page.request.delete(`${E2E.platformUrl}/api/v1/deployments/${deploymentId}/folders/${folderId}`, { headers })).status()).toBe(204);
    await dialog.getByTestId("chat-save-submit").click();
    await expect(dialog.getByTestId("chat-save-error")).toContainText("Not saved: Folder not found");
    // The dialog stays open to choose another place.
    await dialog.getByTestId("chat-save-destination").selectOption({ label: "My workspace" });
    await dialog.getByTestId("chat-save-submit").click();
    await expect(dialog.getByTestId("chat-save-done")).toContainText("Saved to My workspace › total revenue");
  });

  test("without allowChatWorkspaceAuthoring there is no button, and the platform refuses the save", async ({ page }) => {
    const who = { externalId: `no-save-${randomBytes(4).toString("hex")}@acme.example`, creatorMode: true };
    const { deploymentId, sessionId } = await signedSession(page.request, who);
    const frame = await openChat(page, sessionId);
    const answer = await ask(frame, "revenue by category");
    await expect(answer.getByTestId("chat-suggestions")).toBeVisible();
    await expect(frame.getByTestId("chat-save-report")).toHaveCount(0);

    const token = await bearerOf(page.request, who);
    const headers = { authorization: `Bearer ${token}` };
    const base = `${E2E.platformUrl}/api/v1/deployments/${deploymentId}/chat/threads`;
    const threads = (await (await page.request.get(base, { headers })).json()) as { data: { id: string }[] };
    const thread = (await (await page.request.get(`${base}/${threads.data[0]!.id}`, { headers })).json()) as { messages: { id: string; role: string }[] };
    const answerId = thread.messages.find((m) => m.role === "assistant")!.id;
    const res = await page.request.post(`${base}/${threads.data[0]!.id}/messages/${answerId}/report`, { headers, data: { name: "Sneaky" } });
    expect(res.status()).toBe(403);
  });

  test("dashboard chat saves an answer with the dashboard's filters", async ({ page }) => {
    const who = { ...creator(), settings: { allowChatWorkspaceAuthoring: true, showDashboardChat: true } };
    const { sessionId } = await signedSession(page.request, who);
    const config = await getDemoConfig(page.request);
    const frame = await openEmbedInHost(page, dashboardUrl(config.dashboardPublicId, sessionId, {}), { width: 1240, height: 860 });
    await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
    const applied = await requestAction(page, "svc:action:set-filter", { filterUrlParameter: 'f_sales.customers_country={"value":["CA"]}' });
    expect(applied.status, applied.reason).toBe("applied");
    await frame.getByTestId("dashboard-chat-open").click();
    const drawer = frame.getByTestId("chat-drawer");
    const answer = await ask(drawer, "revenue by category");
    await answer.getByTestId("chat-save-report").click();
    const dialog = frame.getByTestId("chat-save-dialog");
    await dialog.getByTestId("chat-save-name").fill("Canada by category");
    await dialog.getByTestId("chat-save-submit").click();
    await expect(dialog.getByTestId("chat-save-done")).toContainText("Saved to My workspace › Canada by category");

    const token = await bearerOf(page.request, who);
    const headers = { authorization: `Bearer ${token}` };
    const search = await page.request.get(`${E2E.platformUrl}/api/v1/deployments/${config.deploymentId}/app/search?q=Canada`, { headers });
    const found = ((await search.json()) as { items: { type: string; id: number; name: string }[] }).items.find((r) => r.type === "REPORT");
    const report = await (await page.request.get(`${E2E.platformUrl}/api/v1/deployments/${config.deploymentId}/reports/${found!.id}`, { headers })).json();
    expect(report.query.filters).toEqual([{ member: "sales.customers_country", operator: "equals", values: ["CA"] }]);
  });

  for (const [name, scheme, size] of [
    ["light", "light", { width: 1100, height: 760 }],
    ["dark", "dark", { width: 1100, height: 760 }],
    ["phone", "light", { width: 390, height: 760 }],
  ] as const) {
    test(`the dialog looks finished (${name})`, async ({ page }) => {
      const { sessionId } = await signedSession(page.request, creator());
      const frame = await openChat(page, sessionId, size);
      if (scheme === "dark") expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
      const answer = await ask(frame, "revenue by country last quarter");
      await answer.getByTestId("chat-save-report").click();
      const dialog = frame.getByTestId("chat-save-dialog");
      await expect(dialog).toBeVisible();
      await page.waitForTimeout(300);
      const shots = process.env.SVC_SCREENSHOTS;
      if (shots) await page.locator("#embed").screenshot({ path: `${shots === "1" ? "docs/screenshots" : shots}/chat-save-report-${name}.png` });
      await dialog.getByTestId("chat-save-submit").click();
      await expect(dialog.getByTestId("chat-save-done")).toBeVisible();
      await page.waitForTimeout(200);
      // The result is looked at in a directory of one's choosing (SVC_SCREENSHOTS=<dir>); docs keep the dialog only.
      if (shots && shots !== "1") await page.locator("#embed").screenshot({ path: `${shots}/chat-save-report-${name}-done.png` });
    });
  }
});
