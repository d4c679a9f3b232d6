import { expect, test, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { embedFrame, generateSession, getDemoConfig, mark, requestAction, waitForEvent } from "./support/embed-harness";
import { shotsDir } from "./support/shots";

const SHOTS = shotsDir("creator-app");

// The creator-mode app inside host.html on another origin: an acme-corp creator builds a report
// (revenue by country), puts it on a dashboard and publishes it; a globex-inc creator sees none
// of it; an acme viewer sees the dashboard only once it is shared.

const session = generateSession;

async function openApp(page: Page, sessionId: string, path = "") {
  const { deploymentId } = await getDemoConfig(page.request);
  const src = new URL(`/embed/d/${deploymentId}/app${path}`, E2E.platformUrl);
  src.searchParams.set("session", sessionId);
  await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(src.toString())}`);
  return deploymentId;
}

const stamp = Date.now().toString(36);
const WORKBOOK = `Revenue by country ${stamp}`;

test.describe.serial("the creator-mode app", () => {
  let deploymentId: number;
  let workbookId: number;
  let publicId: string;

  test("an acme creator builds a report, puts it on a dashboard and publishes it", async ({ page }) => {
    test.setTimeout(120_000);
    deploymentId = await openApp(page, await session(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true }));
    const ready = await waitForEvent(page, "svc:event:ready");
    expect(ready).toMatchObject({ surface: "app", payload: { mode: "signed", embedTenant: "acme-corp", deploymentId } });
    await waitForEvent(page, "svc:event:view", { payload: { path: `/d/${deploymentId}/app` } });

    const app = page.frameLocator("iframe#embed");
    await expect(app.getByTestId("app-home")).toBeVisible();
    await app.getByTestId("new-workbook").click();
    await app.getByTestId("name-input").fill(WORKBOOK);
    await app.getByTestId("name-submit").click();
    await expect(app.getByTestId("workbook")).toBeVisible();
    workbookId = Number(await app.getByTestId("workbook").getAttribute("data-workbook-id"));
    await waitForEvent(page, "svc:event:navigate", { payload: { path: `/d/${deploymentId}/app/workbooks/${workbookId}` } });

    await app.getByRole("button", { name: "Create a report" }).click();
    await app.getByTestId("name-input").fill("Revenue by country");
    await app.getByTestId("name-submit").click();
    const builder = app.getByTestId("report-builder");
    await expect(builder).toBeVisible();
    await builder.locator('input[data-member="sales.revenue"]').check();
    await builder.getByRole("button", { name: "+ Breakout" }).click();
    await builder.getByRole("combobox", { name: "Breakout 1" }).selectOption("sales.customers_country");
    await app.getByTestId("viz-bar").click();
    // Real numbers from the demo data through the semantic layer, rendered as a chart.
    await expect(app.getByTestId("report-result").locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
    await expect(app.getByTestId("report-result").locator("canvas, svg").first()).toBeVisible();
    await expect(app.getByTestId("save-status")).toHaveText("Saved", { timeout: 15_000 });
    await expect(app.getByTestId("semantic-sql")).toContainText("MEASURE(sales.revenue)");
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/creator-report.png` });

    await app.getByTestId("tab-dashboard").click();
    await waitForEvent(page, "svc:event:navigate", { payload: { path: `/d/${deploymentId}/app/workbooks/${workbookId}/dashboard` } });
    await app.getByTestId("add-chart").click();
    await app.getByTestId("add-text").click();
    await app.getByTestId("text-markdown").fill("## Revenue by country\nAll completed and open orders.");
    await expect(app.getByTestId("draft-status")).toHaveText("Draft saved", { timeout: 15_000 });
    await app.getByTestId("publish").click();
    const published = app.getByTestId("published-dashboard");
    await expect(published).toBeVisible({ timeout: 20_000 });
    publicId = (await published.getAttribute("data-public-id"))!;
    expect(publicId).toMatch(/^[0-9A-Za-z]{12}$/);
    await expect(published.locator('[data-state="ready"]').first()).toBeVisible({ timeout: 30_000 });
    await waitForEvent(page, "svc:event:navigate", { payload: { path: `/d/${deploymentId}/app/workbooks/${workbookId}/dashboard/published` } });

    // The host drives the app through its paths, and nothing else.
    const home = await requestAction(page, "svc:action:navigate", { path: `/d/${deploymentId}/app` });
    expect(home.status).toBe("applied");
    await expect(app.getByTestId("app-home")).toBeVisible();
    await expect(app.getByTestId("home-recent")).toContainText(WORKBOOK);
    const outside = await requestAction(page, "svc:action:navigate", { path: `/dashboard/${publicId}` });
    expect(outside).toMatchObject({ status: "rejected", reason: "invalid-path" });
    const back = await requestAction(page, "svc:action:navigate", { path: `/d/${deploymentId}/app/workbooks/${workbookId}/dashboard/published` });
    expect(back.status).toBe("applied");
    await expect(app.getByTestId("published-dashboard")).toBeVisible();
    expect(embedFrame(page).url()).toContain(`/embed/d/${deploymentId}/app/workbooks/${workbookId}/dashboard/published`);
  });

  test("with showWorkbookChat a creator asks in the workbook and adds the answer as a report", async ({ page }) => {
    test.setTimeout(120_000);
    const sessionId = await session(page.request, {
      externalId: "ada@acme.example",
      embedTenantName: "acme-corp",
      creatorMode: true,
      settings: { showWorkbookChat: true },
    });
    await openApp(page, sessionId, `/workbooks/${workbookId}`);
    const app = page.frameLocator("iframe#embed");
    await expect(app.getByTestId("report-builder")).toBeVisible();
    const sheets = app.locator('[data-testid^="sheet-"]');
    const before = await sheets.count();
    await expect(app.getByTestId("workbook-chat-panel")).toHaveCount(0);
    await app.getByTestId("workbook-chat-toggle").click();
    const panel = app.getByTestId("workbook-chat-panel");
    await expect(panel.getByTestId("chat-drawer")).toBeVisible();
    await panel.getByTestId("chat-input").fill("revenue by country");
    await panel.getByTestId("chat-send").click();
    const answer = panel.getByTestId("chat-answer").last();
    await expect(answer).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    await expect(answer.getByTestId("chat-table")).toBeVisible();
    await answer.getByTestId("chat-add-to-workbook").click();
    await expect(app.getByTestId("app-toast")).toContainText("Added “revenue by country” to the workbook");
    // The new report is a sheet of the workbook, opened, its query run; the panel stays open.
    await expect(sheets).toHaveCount(before + 1);
    const tab = app.getByRole("tab", { name: "revenue by country", exact: true });
    await expect(tab).toHaveAttribute("aria-selected", "true");
    await expect(app.getByTestId("report-builder").locator('input[data-member="sales.revenue"]')).toBeChecked();
    await expect(app.getByTestId("report-result").locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
    await expect(panel.getByTestId("chat-add-to-workbook")).toHaveText("Added to workbook");

    // Without the setting there is no chat in the workbook.
    await openApp(
      page,
      await session(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true }),
      `/workbooks/${workbookId}`,
    );
    await expect(app.getByTestId("report-builder")).toBeVisible();
    await expect(app.getByTestId("workbook-chat-toggle")).toHaveCount(0);
  });

  test("the /chat paths show the chat full-width inside the app", async ({ page }) => {
    test.setTimeout(90_000);
    await openApp(page, await session(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true }), "/chat");
    const app = page.frameLocator("iframe#embed");
    const slot = app.getByTestId("app-chat-slot");
    await expect(slot.getByTestId("chat-panel")).toBeVisible();
    await slot.getByTestId("chat-input").fill("revenue by country");
    await slot.getByTestId("chat-send").click();
    await expect(slot.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    // The thread is in the path; outside a workbook there is nothing to add the answer to.
    await expect(slot).toHaveAttribute("data-thread-id", /^[A-Za-z0-9_-]+$/);
    const threadId = (await slot.getAttribute("data-thread-id"))!;
    await waitForEvent(page, "svc:event:navigate", { payload: { path: `/d/${deploymentId}/app/chat/${threadId}` } });
    await expect(slot.getByTestId("chat-add-to-workbook")).toHaveCount(0);
    // The answer's chart is drawn inside the app as in the chat surface: eighteen countries read
    // down the side by name, as the table names them (never their codes).
    await expect(slot.getByTestId("chat-chart").locator(".svc-chart-canvas svg")).toBeVisible();
    await expect(
      slot
        .getByTestId("chat-chart")
        .locator("svg text")
        .filter({ hasText: /^United Kingdom$/ }),
    ).toHaveCount(1);
    await expect(slot.getByTestId("chat-chart").locator("svg text").filter({ hasText: /^GB$/ })).toHaveCount(0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/creator-app-chat.png` });
    // Opening the thread's path again shows its conversation.
    await openApp(page, await session(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true }), `/chat/${threadId}`);
    await expect(app.getByTestId("chat-question")).toHaveText("revenue by country");
    await expect(app.getByTestId("chat-answer").getByTestId("chat-table")).toBeVisible();
  });

  test("a globex creator sees none of it", async ({ page }) => {
    await openApp(page, await session(page.request, { externalId: "hank@globex.example", embedTenantName: "globex-inc", creatorMode: true }));
    await waitForEvent(page, "svc:event:ready", { payload: { embedTenant: "globex-inc" } });
    const app = page.frameLocator("iframe#embed");
    await expect(app.getByTestId("app-home")).toBeVisible();
    await expect(app.getByTestId("workspace-list")).not.toContainText("Revenue by country");
    await app.getByTestId("workspace-search").fill("Revenue by country");
    await expect(app.getByTestId("workspace-empty")).toBeVisible();
    const from = await mark(page);
    expect((await requestAction(page, "svc:action:navigate", { path: `/d/${deploymentId}/app/workbooks/${workbookId}` })).status).toBe("applied");
    await expect(app.getByTestId("workbook-error")).toBeVisible();
    await waitForEvent(page, "svc:event:navigate", { from, payload: { path: `/d/${deploymentId}/app/workbooks/${workbookId}` } });
  });

  test("a session without creatorMode gets the fatal Forbidden error in the app", async ({ page }) => {
    await openApp(page, await session(page.request, { externalId: "vic@acme.example", embedTenantName: "acme-corp" }));
    const error = await waitForEvent(page, "svc:event:error", { payload: { fatal: true } });
    expect(error).toMatchObject({ surface: "app", payload: { name: "Forbidden", fatal: true } });
  });

  test("an acme viewer sees the dashboard only once it is shared", async ({ page, browser }) => {
    test.setTimeout(90_000);
    const viewer = async () => {
      const sessionId = await session(page.request, { externalId: "vic@acme.example", embedTenantName: "acme-corp" });
      const src = new URL(`/embed/dashboard/${publicId}`, E2E.platformUrl);
      src.searchParams.set("session", sessionId);
      const p = await browser.newPage();
      await p.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(src.toString())}`);
      return p;
    };
    const before = await viewer();
    expect(await waitForEvent(before, "svc:event:error", { payload: { fatal: true } })).toMatchObject({ payload: { name: "Forbidden" } });
    await before.close();

    // Ada shares the workbook with everyone in acme-corp from the app.
    await openApp(
      page,
      await session(page.request, { externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true }),
      `/workbooks/${workbookId}/dashboard/published`,
    );
    const app = page.frameLocator("iframe#embed");
    await app.getByTestId("share-workbook").click();
    await app.getByTestId("share-all").click();
    await expect(app.getByTestId("share-all")).toBeChecked();
    await expect(app.getByTestId("app-toast")).toContainText("Sharing updated");

    const after = await viewer();
    await waitForEvent(after, "svc:event:ready", { payload: { publicId } });
    await expect(after.frameLocator("iframe#embed").getByTestId("dashboard")).toBeVisible({ timeout: 30_000 });
    await after.close();
  });

  // Screenshots for docs/screenshots (SVC_SCREENSHOTS=1): light, dark and phone.
  test("screenshots", async ({ browser }) => {
    test.skip(!process.env.SVC_SCREENSHOTS, "set SVC_SCREENSHOTS=1 to write docs/screenshots");
    test.setTimeout(180_000);
    const shots: [string, string, { width: number; height: number }, "light" | "dark"][] = [
      ["creator-home-light", "", { width: 1280, height: 800 }, "light"],
      ["creator-home-dark", "", { width: 1280, height: 800 }, "dark"],
      ["creator-report-light", `/workbooks/${workbookId}`, { width: 1280, height: 800 }, "light"],
      ["creator-report-dark", `/workbooks/${workbookId}`, { width: 1280, height: 800 }, "dark"],
      ["creator-dashboard-editor-light", `/workbooks/${workbookId}/dashboard`, { width: 1280, height: 800 }, "light"],
      ["creator-published-dark", `/workbooks/${workbookId}/dashboard/published`, { width: 1280, height: 800 }, "dark"],
      ["creator-home-phone", "", { width: 390, height: 844 }, "light"],
      ["creator-report-phone", `/workbooks/${workbookId}`, { width: 390, height: 844 }, "dark"],
    ];
    for (const [name, path, viewport, colorScheme] of shots) {
      const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const sessionId = await session(page.request, {
        externalId: "ada@acme.example",
        embedTenantName: "acme-corp",
        creatorMode: true,
        userProfile: { displayName: "Ada Lovelace" },
      });
      const src = `${E2E.platformUrl}/embed/d/${deploymentId}/app${path}?session=${sessionId}`;
      await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(src)}`);
      await page.evaluate(() => {
        document.body.style.margin = "0";
        const frame = document.getElementById("embed")!;
        frame.style.width = "100vw";
        frame.style.height = "100vh";
      });
      await waitForEvent(page, "svc:event:ready");
      if (colorScheme === "dark") expect((await requestAction(page, "svc:action:set-color-scheme", { scheme: "dark" })).status).toBe("applied");
      const app = page.frameLocator("iframe#embed");
      const ready = app.locator(
        '[data-testid="app-home"], [data-testid="report-builder"] [data-state="ready"], [data-testid="dashboard-editor"] [data-state="ready"], [data-testid="published-dashboard"] [data-state="ready"]',
      );
      await expect(ready.first()).toBeVisible({ timeout: 30_000 });
      await page.waitForTimeout(800);
      await page.screenshot({ path: `docs/screenshots/${name}.png` });
      await context.close();
    }
  });

  // The workbook's chat panel, open with an answer (SVC_SCREENSHOTS=1): light and phone.
  test("workbook chat screenshots", async ({ browser }) => {
    test.skip(!process.env.SVC_SCREENSHOTS, "set SVC_SCREENSHOTS=1 to write docs/screenshots");
    test.setTimeout(120_000);
    const shots: [string, { width: number; height: number }][] = [
      ["creator-workbook-chat-light", { width: 1280, height: 800 }],
      ["creator-workbook-chat-phone", { width: 390, height: 844 }],
    ];
    for (const [name, viewport] of shots) {
      const context = await browser.newContext({ viewport, colorScheme: "light", deviceScaleFactor: 1 });
      const page = await context.newPage();
      const sessionId = await session(page.request, {
        externalId: "ada@acme.example",
        embedTenantName: "acme-corp",
        creatorMode: true,
        userProfile: { displayName: "Ada Lovelace" },
        settings: { showWorkbookChat: true },
      });
      const src = `${E2E.platformUrl}/embed/d/${deploymentId}/app/workbooks/${workbookId}?session=${sessionId}`;
      await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(src)}`);
      await page.evaluate(() => {
        document.body.style.margin = "0";
        const frame = document.getElementById("embed")!;
        frame.style.width = "100vw";
        frame.style.height = "100vh";
      });
      const app = page.frameLocator("iframe#embed");
      await expect(app.getByTestId("report-builder").locator('[data-state="ready"]')).toBeVisible({ timeout: 30_000 });
      await app.getByTestId("workbook-chat-toggle").click();
      const panel = app.getByTestId("workbook-chat-panel");
      await panel.getByTestId("chat-input").fill("Revenue by country");
      await panel.getByTestId("chat-send").click();
      await expect(panel.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
      await panel.getByTestId("chat-add-to-workbook").scrollIntoViewIfNeeded();
      await page.waitForTimeout(800);
      await page.screenshot({ path: `docs/screenshots/${name}.png` });
      await context.close();
    }
  });
});
