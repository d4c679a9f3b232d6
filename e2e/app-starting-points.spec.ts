import { expect, test, type FrameLocator, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import { generateSession, getDemoConfig, openEmbedInHost, requestAction } from "./support/embed-harness";
import { shotsDir } from "./support/shots";

// The creator's home from the host page: "Start from" a copy of the published demo dashboard
// (its charts on copies of its reports, in the creator's space) or a template of one view (KPI
// row, trend, breakdown); each opens the new workbook's dashboard editor with working charts.
// Screens in light and dark, desktop 1440 and phone 390 (SVC_SHOTS_DIR).

const OUT = shotsDir("app-starting-points");

async function shoot(page: Page, name: string) {
  if (!OUT) return;
  for (const scheme of ["light", "dark"] as const) {
    expect((await requestAction(page, "svc:action:set-color-scheme", { scheme })).status).toBe("applied");
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}/${name}-${scheme}.png` });
  }
}

async function openHome(page: Page, size: { width: number; height: number }, externalId: string): Promise<FrameLocator> {
  const { deploymentId } = await getDemoConfig(page.request);
  const src = new URL(`/embed/d/${deploymentId}/app`, E2E.platformUrl);
  src.searchParams.set("session", await generateSession(page.request, { externalId, embedTenantName: "acme-corp", creatorMode: true }));
  const app = await openEmbedInHost(page, src.toString(), size);
  await expect(app.getByTestId("home-start")).toBeVisible({ timeout: 30_000 });
  return app;
}

async function expectChartsReady(app: FrameLocator, count: number) {
  const charts = app.locator('.svc-app-widget[data-widget-type="CHART"]');
  await expect(charts).toHaveCount(count, { timeout: 30_000 });
  for (const chart of await charts.all()) await expect(chart.locator("[data-state]").first()).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
}

for (const [name, size] of [
  ["desktop", { width: 1440, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`a creator starts from the demo dashboard and from a template (${name})`, async ({ page }) => {
    test.setTimeout(180_000);
    const app = await openHome(page, size, `start-${name}-${Date.now().toString(36)}@acme.example`);
    const pick = app.getByTestId("start-copy-pick");
    const demoTitle = (await pick.locator("option").first().innerText()).trim();
    expect(demoTitle.length).toBeGreaterThan(0);
    await app.getByTestId("start-template-view").selectOption({ index: 0 });
    await app.getByTestId("home-start").scrollIntoViewIfNeeded();
    await shoot(page, `start-home-${name}`);

    // A copy of the published demo dashboard, in the creator's space, opened in the editor.
    const copyAnswer = page.waitForResponse((r) => r.url().includes("/app/starting-points/dashboards/") && r.request().method() === "POST");
    await app.getByRole("button", { name: "Copy to my space" }).click();
    const answer = await copyAnswer;
    expect(answer.status(), await answer.text()).toBe(201);
    await expect(app.getByTestId("dashboard-editor")).toBeVisible({ timeout: 30_000 });
    await expect(app.getByTestId("app-toast")).toContainText(`“${demoTitle}” is in your space.`);
    const copied = await app.locator('.svc-app-widget[data-widget-type="CHART"]').count();
    expect(copied).toBeGreaterThan(0);
    await expectChartsReady(app, copied);
    await shoot(page, `start-copied-${name}`);

    // Home again: the copy is the creator's; a template of the first view.
    const { deploymentId } = await getDemoConfig(page.request);
    expect((await requestAction(page, "svc:action:navigate", { path: `/d/${deploymentId}/app` })).status).toBe("applied");
    await expect(app.getByTestId("app-home")).toBeVisible();
    await expect(app.locator(".svc-app-row, .svc-app-card").filter({ hasText: demoTitle }).first()).toBeVisible({ timeout: 15_000 });
    const view = (await app.getByTestId("start-template-view").locator("option:checked").innerText()).trim();
    await app.getByRole("button", { name: "Create dashboard" }).click();
    await expect(app.getByTestId("dashboard-editor")).toBeVisible({ timeout: 30_000 });
    await expect(app.getByTestId("app-toast")).toContainText(`“${view} overview” is in your space.`);
    // KPIs across the top, a trend and a breakdown below (the views of the demo have all three).
    await expectChartsReady(app, 5);
    await expect(app.getByTestId("draft-status")).toHaveText("Draft saved");
    await shoot(page, `start-template-${name}`);
  });
}
