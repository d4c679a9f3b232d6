import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E } from "./support/env";
import {
  createSession,
  dashboardUrl,
  embedFrame,
  getDemoConfig,
  mark,
  openChatInHost,
  openHost,
  waitForEvent,
  waitForWidgetsSettled,
} from "./support/embed-harness";

// The embed pages' Content-Security-Policy (src/server/modules/embed-app/csp.ts) in a real
// browser: a remote image in a markdown widget is never fetched, and what the embed does —
// charts drawn in the worker, the HTML report, exports (PNG, PDF, CSV), the dashboard app frame,
// the chat, the creator app — runs with no violation of the policy at all.

const auth = { authorization: `Bearer ${E2E.adminToken}` };
const stamp = Date.now().toString(36);

async function api<T>(request: APIRequestContext, method: "put" | "post" | "patch" | "get", path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`${E2E.platformUrl}${path}`, { method: method.toUpperCase(), headers: auth, ...(data === undefined ? {} : { data }) });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

interface Violation {
  directive: string;
  blocked: string;
}

/**
 * Records, in every document of the page, each `securitypolicyviolation` (the browser fires one
 * per blocked load or script), and every console error that names the policy.
 */
async function watchPolicy(page: Page): Promise<{ consoleErrors: string[] }> {
  await page.addInitScript(() => {
    const list: { directive: string; blocked: string }[] = [];
    (window as unknown as { __cspViolations: typeof list }).__cspViolations = list;
    document.addEventListener("securitypolicyviolation", (e) => list.push({ directive: e.effectiveDirective, blocked: e.blockedURI }), true);
  });
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) consoleErrors.push(message.text());
  });
  return { consoleErrors };
}

/** The violations the embed page has seen so far. */
function violationsOf(page: Page): Promise<Violation[]> {
  return embedFrame(page).evaluate(() => (window as unknown as { __cspViolations?: Violation[] }).__cspViolations ?? []);
}

/** A dashboard of a markdown widget with remote images (markdown and raw HTML) beside a chart. */
async function createTrackedDashboard(request: APIRequestContext, images: string[]): Promise<string> {
  const { deploymentId, dashboardPublicId } = await getDemoConfig(request);
  const demo = await api<{ dashboard: { reportSnapshots: { reportId: number; name: string | null }[] } }>(
    request,
    "get",
    `/api/v1/embed/dashboard/${dashboardPublicId}`,
  );
  const trend = demo.dashboard.reportSnapshots.find((s) => s.name === "revenue_trend") ?? demo.dashboard.reportSnapshots[0]!;
  const workbook = await api<{ id: number }>(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/by-slug/e2e-csp-${stamp}`, {
    name: `CSP ${stamp}`,
    meta: {
      dashboardDraft: {
        title: "Tracked markdown",
        widgets: [
          {
            id: "notes",
            type: "TEXT",
            position: { x: 0, y: 0, w: 6, h: 4 },
            config: { markdown: `## Notes\n\nA pixel: ![pixel](${images[0]})\n\n<img src="${images[1]}" alt="raw pixel">` },
          },
          { id: "trend", type: "CHART", position: { x: 6, y: 0, w: 6, h: 5 }, config: { reportId: trend.reportId } },
        ],
      },
    },
  });
  const dashboard = await api<{ publicId: string }>(request, "post", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/dashboard/publish`);
  await api(request, "put", `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/embed-access`, {
    rules: [{ embedTenantName: null, action: "read" }],
  });
  await api(request, "patch", `/api/v1/embed/dashboard/${dashboard.publicId}`, { allowEmbed: true });
  return dashboard.publicId;
}

test("a remote image in a markdown widget is never fetched; the chart beside it draws", async ({ page }) => {
  const images = [`${E2E.attackerUrl}/csp-${stamp}-a.png`, `${E2E.attackerUrl}/csp-${stamp}-b.png`];
  const publicId = await createTrackedDashboard(page.request, images);
  const watch = await watchPolicy(page);
  const sessionId = await createSession(page.request);
  await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(dashboardUrl(publicId, sessionId))}`);
  await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });

  const frame = page.frameLocator("#embed");
  await expect(frame.getByTestId("widget-trend")).toHaveAttribute("data-state", "ready");
  await expect(frame.getByTestId("widget-trend").locator("svg").first()).toBeVisible();
  // The sanitiser keeps an image (it is inert markup); the policy keeps it from loading.
  const notes = frame.getByTestId("widget-notes");
  await expect(notes.locator("img")).toHaveCount(2);
  // Both images have settled (loaded, failed or blocked): whatever the browser asked for, it has asked.
  await expect.poll(() => notes.locator("img").evaluateAll((images) => images.every((i) => (i as HTMLImageElement).complete))).toBe(true);

  const asked = (await (await page.request.get(`${E2E.attackerUrl}/__requests`)).json()) as string[];
  expect(asked.filter((p) => p.includes(`csp-${stamp}`))).toEqual([]);
  await expect.poll(async () => (await violationsOf(page)).filter((v) => v.directive === "img-src").length).toBe(2);
  // The two images are the only thing the policy stopped.
  expect((await violationsOf(page)).map((v) => [v.directive, v.blocked]).sort()).toEqual(images.map((url) => ["img-src", url]).sort());
  expect(watch.consoleErrors.filter((e) => !images.some((url) => e.includes(url)))).toEqual([]);
});

test.describe("what the embed does runs within its policy", () => {
  test("the demo dashboard: charts, the HTML report, the map, and PNG, PDF and CSV exports", async ({ page }) => {
    test.setTimeout(120_000);
    const watch = await watchPolicy(page);
    await openHost(page, { params: { allowExport: "true" } });
    await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
    await waitForWidgetsSettled(page);
    const frame = page.frameLocator("#embed");
    await expect(frame.locator('[data-state="error"]')).toHaveCount(0);
    for (const [testId, format] of [
      ["export-png-dashboard", "png"],
      ["export-pdf-dashboard", "pdf"],
      ["export-csv-top_cities", "csv"],
    ] as const) {
      const from = await mark(page);
      const button = frame.getByTestId(testId);
      await button.scrollIntoViewIfNeeded();
      const [download] = await Promise.all([page.waitForEvent("download", { timeout: 45_000 }), button.click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`\\.${format}$`));
      expect(readFileSync((await download.path())!).length).toBeGreaterThan(100);
      await waitForEvent(page, "svc:event:download", { from, timeout: 45_000 });
    }
    expect(await violationsOf(page)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });

  test("the demo dashboard app: its frame loads the runtime and libraries and draws", async ({ page }) => {
    const watch = await watchPolicy(page);
    const response = await page.request.get(`${E2E.demoHostUrl}/config.json`);
    const { appDashboardPublicId } = (await response.json()) as { appDashboardPublicId: string };
    const sessionId = await createSession(page.request);
    await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(dashboardUrl(appDashboardPublicId, sessionId))}`);
    await waitForEvent(page, "svc:event:dashboard-loaded", { timeout: 30_000 });
    const app = page.frameLocator("#embed").frameLocator("[data-testid=app-frame]");
    await expect(app.locator("[data-stage=placed] b")).toHaveText(/^[\d,]+$/);
    await expect(app.locator("#chart svg")).toBeVisible();
    expect(await violationsOf(page)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });

  test("the chat surface", async ({ page }) => {
    const watch = await watchPolicy(page);
    const frame = await openChatInHost(page, await createSession(page.request));
    await expect(frame.locator("textarea, input[type=text]").first()).toBeVisible();
    expect(await violationsOf(page)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });

  test("the creator app", async ({ page }) => {
    const watch = await watchPolicy(page);
    const { deploymentId } = await getDemoConfig(page.request);
    const res = await page.request.post(`${E2E.platformUrl}/api/v1/embed/generate-session`, {
      headers: auth,
      data: { deploymentId, externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true },
    });
    const { sessionId } = (await res.json()) as { sessionId: string };
    const src = new URL(`/embed/d/${deploymentId}/app`, E2E.platformUrl);
    src.searchParams.set("session", sessionId);
    await page.goto(`${E2E.hostUrl}/host.html?embed=${encodeURIComponent(src.toString())}`);
    await waitForEvent(page, "svc:event:ready");
    await expect(page.frameLocator("#embed").getByTestId("app-home")).toBeVisible();
    expect(await violationsOf(page)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });
});
