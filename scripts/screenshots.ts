/**
 * Retakes the dashboard screenshots of docs/screenshots from the real platform (the e2e rig
 * on ports of its own, with the demo deployment) in Debian's Chromium:
 *   npm run build && npx tsx scripts/screenshots.ts [--base-port 18280] [--out docs/screenshots]
 * or against a platform that is already running (its demo host too); the host fixture page
 * is then served by this script on 127.0.0.1:<--host-port>, allowed for the time of the run:
 *   npx tsx scripts/screenshots.ts --platform http://localhost:8090 --demo-host http://127.0.0.1:8091 --admin-token svc_…
 *
 * - dashboard-light.png: 1280 px wide, the whole dashboard.
 * - dashboard-dark.png: the same after the host page sent `svc:action:set-color-scheme`
 *   `{ scheme: "dark" }` (e2e/fixtures/dashboard-frame.html, an allowed host origin).
 * - dashboard-phone.png: 390 px wide (one column), the whole dashboard.
 * - dashboard-drilldown.png: the rows behind a cell of the cities table (the drill-down panel), 1280 × 900.
 * - demo-host.png: the demo host page with its signed embed, 1440 × 900.
 *
 * Charts draw when they come near the screen, and HTML reports render in a frame of their
 * own that a capture beyond the viewport does not see; so each shot first grows the viewport
 * to the whole height of the dashboard and waits until every widget has settled and drawn.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { rigAddresses } from "../e2e/support/env";
import { startRig } from "../e2e/support/rig";

const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const basePort = Number(option("base-port", "18280"));
const outDir = option("out", "docs/screenshots");
const runningPlatform = option("platform", "");
const addresses = runningPlatform
  ? {
      platformUrl: runningPlatform.replace(/\/$/, ""),
      demoHostUrl: option("demo-host", "http://127.0.0.1:8091").replace(/\/$/, ""),
      hostUrl: `http://127.0.0.1:${option("host-port", "8092")}`,
      adminToken: option("admin-token", process.env.SVC_ADMIN_TOKEN ?? ""),
    }
  : rigAddresses(basePort);

/** Serves the host fixture page for a running platform; returns a function that stops it. */
async function serveHostFixture(): Promise<() => Promise<void>> {
  const html = readFileSync(path.join("e2e", "fixtures", "dashboard-frame.html"), "utf8")
    .replaceAll("__PLATFORM_URL__", addresses.platformUrl)
    .replaceAll("__ROLE__", "host");
  const server: Server = createServer((request, response) => {
    if (request.url?.startsWith("/dashboard-frame.html")) response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    else response.writeHead(404).end();
  });
  const { port } = new URL(addresses.hostUrl);
  await new Promise<void>((resolve) => server.listen(Number(port), "127.0.0.1", resolve));
  const originsUrl = `${addresses.platformUrl}/api/v1/embed/allowed-origins`;
  const headers = { authorization: `Bearer ${addresses.adminToken}`, "content-type": "application/json" };
  const before = ((await (await fetch(originsUrl, { headers })).json()) as { origins: string[] }).origins;
  const put = (origins: string[]) => fetch(originsUrl, { method: "PUT", headers, body: JSON.stringify({ origins }) });
  if (!(await put([...new Set([...before, addresses.hostUrl])])).ok) throw new Error("could not allow the fixture host origin");
  return async () => {
    await put(before);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

/** Events the host fixture recorded, by type. */
async function eventCount(page: Page, type: string): Promise<number> {
  return page.evaluate((t) => (window as unknown as { __events: Array<{ data?: { type?: string } }> }).__events.filter((e) => e.data?.type === t).length, type);
}

async function waitForEvent(page: Page, type: string, atLeast = 1): Promise<void> {
  await page.waitForFunction(
    ({ t, n }) => (window as unknown as { __events: Array<{ data?: { type?: string } }> }).__events.filter((e) => e.data?.type === t).length >= n,
    { t: type, n: atLeast },
    { timeout: 60_000, polling: 50 },
  );
}

/** Grows the viewport to the iframe's full height and waits until every widget is drawn. */
async function settleWholeDashboard(page: Page, width: number): Promise<void> {
  const frame = page.frameLocator("#embed");
  await frame.getByTestId("dashboard").waitFor();
  for (let round = 0; round < 3; round++) {
    const height = await page.evaluate(() => Math.ceil(document.documentElement.scrollHeight));
    await page.setViewportSize({ width, height: Math.max(900, height) });
    await page.waitForTimeout(400);
  }
  // Every widget ready or failed (a chart counts as loading until it has drawn).
  await frame.locator('[data-testid^="widget-"][data-state="loading"]').first().waitFor({ state: "detached", timeout: 60_000 });
  // Vega draws on the next frames after its data arrived; give the last ones a moment.
  await page.waitForTimeout(1500);
}

async function newSession(): Promise<{ sessionId: string; publicId: string }> {
  const config = (await (await fetch(`${addresses.demoHostUrl}/config.json`)).json()) as { dashboardPublicId: string; deploymentId: number };
  const response = await fetch(`${addresses.platformUrl}/api/v1/embed/generate-session`, {
    method: "POST",
    headers: { authorization: `Bearer ${addresses.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ deploymentId: config.deploymentId, externalId: "ada@acme.example", embedTenantName: "acme-corp" }),
  });
  if (!response.ok) throw new Error(`generate-session answered ${response.status}`);
  return { sessionId: ((await response.json()) as { sessionId: string }).sessionId, publicId: config.dashboardPublicId };
}

async function openFrameHost(page: Page, params: Record<string, string> = {}): Promise<void> {
  const { sessionId, publicId } = await newSession();
  const embed = new URL(`/embed/dashboard/${publicId}`, addresses.platformUrl);
  embed.searchParams.set("session", sessionId);
  for (const [k, v] of Object.entries(params)) embed.searchParams.set(k, v);
  await page.goto(`${addresses.hostUrl}/dashboard-frame.html?embed=${encodeURIComponent(embed.toString())}`);
  await waitForEvent(page, "svc:event:dashboard-loaded");
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const rig = runningPlatform ? null : await startRig({ addresses: rigAddresses(basePort), logLevel: "error" });
  const stopFixture = runningPlatform ? await serveHostFixture() : null;
  const browser = await chromium.launch({ executablePath: process.env.SVC_CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    // Light, desktop.
    {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await openFrameHost(page, { allowExport: "true" });
      await settleWholeDashboard(page, 1280);
      await page.locator("#embed").screenshot({ path: path.join(outDir, "dashboard-light.png") });

      // Dark, through the host's real action.
      const before = await eventCount(page, "svc:event:action-result");
      await page.evaluate(() => {
        document.body.classList.add("dark");
        (window as unknown as { __action(type: string, payload: unknown, requestId?: string): void }).__action(
          "svc:action:set-color-scheme",
          { scheme: "dark" },
          "screenshot-dark",
        );
      });
      await waitForEvent(page, "svc:event:action-result", before + 1);
      await settleWholeDashboard(page, 1280);
      await page.locator("#embed").screenshot({ path: path.join(outDir, "dashboard-dark.png") });
      await page.close();
    }
    // Phone.
    {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
      await openFrameHost(page);
      await settleWholeDashboard(page, 390);
      await page.locator("#embed").screenshot({ path: path.join(outDir, "dashboard-phone.png") });
      await page.close();
    }
    // The drill-down panel over the dashboard.
    {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await openFrameHost(page, { allowExport: "true" });
      const frame = page.frameLocator("#embed");
      await frame.getByTestId("widget-top_cities").locator(".svc-table-body .svc-drill-button").first().click();
      await frame.locator('[data-testid="drilldown-panel"][data-state="ready"]').waitFor({ timeout: 60_000 });
      await page.waitForTimeout(400);
      await page.screenshot({ path: path.join(outDir, "dashboard-drilldown.png") });
      await page.close();
    }
    // The demo host page.
    {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(addresses.demoHostUrl);
      await page.frameLocator("#embed").getByTestId("dashboard").waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => /dashboard-loaded/.test(document.getElementById("log")?.textContent ?? ""), undefined, { timeout: 60_000 });
      await page.waitForTimeout(1500);
      await page.screenshot({ path: path.join(outDir, "demo-host.png") });
      await page.close();
    }
    console.log(`screenshots written to ${outDir}`);
  } finally {
    await browser.close();
    await stopFixture?.();
    await rig?.stop();
  }
}

await main();
