/**
 * A newcomer's first start: `npm start`'s launcher (scripts/start.mjs, which runs the server
 * bundle and builds what changed) on empty storage prints a one-time sign-in
 * link for the admin; opened in a browser it signs in and shows the demo dashboard in private
 * mode; opened again it is refused with a message on the login screen. The platform runs as
 * its own process (as `npm start` runs it) on SVC_E2E_BASE_PORT + 10, with fresh PGlite storage.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { shotsDir } from "./support/shots";

const PORT = (Number(process.env.SVC_E2E_BASE_PORT) || 18080) + 10;
const LINK = new RegExp(`Admin sign-in link for private mode[^\\n]*\\n {4}(http://localhost:${PORT}/embed/dashboard/\\w+#sign-in=([A-Za-z0-9_-]+))\\n`);

let child: ChildProcess | null = null;
let dataDir = "";
let stdout = "";

test.describe("first start", () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dataDir = mkdtempSync(path.join(tmpdir(), "svc-e2e-first-"));
    // The launcher `npm start` runs, with Node itself (not npm) so that stopping the child stops
    // the server; only these settings (no DATABASE_URL, no SVC_ADMIN_TOKEN): what a clean clone
    // starts with.
    child = spawn(process.execPath, ["scripts/start.mjs"], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        PORT: String(PORT),
        SVC_DATA_DIR: dataDir,
        SVC_DEMO_ROWS: "2000",
        SVC_DEMO_HOST_PORT: "0",
        SVC_LOG_LEVEL: "debug",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", () => {});
    for (let i = 0; i < 340 && !LINK.test(stdout); i++) await new Promise((r) => setTimeout(r, 500));
    expect(stdout, "the banner with the sign-in link").toMatch(LINK);
  });

  test.afterAll(async () => {
    child?.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 1000));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const dashboardShown = async (page: Page) => {
    await expect(page.getByTestId("widget-top_cities")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await expect(page.getByTestId("login")).toHaveCount(0);
  };

  test("the printed link signs the admin in to the private-mode dashboard, once", async ({ browser }) => {
    test.setTimeout(120_000);
    const [, url, token] = LINK.exec(stdout)!;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url!);
    await dashboardShown(page);
    // The token left the address bar and the history entry at once.
    expect(page.url()).toBe(url!.split("#")[0]);
    expect(await page.evaluate(() => window.location.hash)).toBe("");
    // Signed in: a reload needs no link. The widgets' first queries go as one batch in private
    // mode too (with the login's CSRF token), none on its own.
    const batches: number[] = [];
    const singles: string[] = [];
    page.on("response", (response) => {
      const path = new URL(response.url()).pathname;
      if (/\/query\/batch$/.test(path)) batches.push(response.status());
      if (/\/deployments\/\d+\/query$/.test(path)) singles.push(path);
    });
    await page.reload();
    await dashboardShown(page);
    expect(batches).toEqual([200]);
    expect(singles).toEqual([]);

    // The chat in private mode: its first writes (a new thread, the question) are raw requests,
    // and carry the login's CSRF token like the typed client's.
    const { dashboard } = await page.evaluate(() =>
      fetch(location.pathname.replace("/embed/dashboard/", "/api/v1/embed/dashboard/")).then(
        (r) => r.json() as Promise<{ dashboard: { deploymentId: number } }>,
      ),
    );
    const chatWrites: string[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "POST" && /\/chat\//.test(new URL(response.url()).pathname)) chatWrites.push(String(response.status()));
    });
    await page.goto(`http://localhost:${PORT}/embed/chat?deploymentId=${dashboard.deploymentId}`);
    await page.getByTestId("chat-input").fill("revenue by country");
    await page.getByTestId("chat-send").click();
    await expect(page.getByTestId("chat-answer").last()).toHaveAttribute("data-status", "completed", { timeout: 30_000 });
    expect(chatWrites.length).toBeGreaterThanOrEqual(2);
    expect(chatWrites.every((status) => status.startsWith("2"))).toBe(true);
    await context.close();

    // The link a second time, in another browser: refused, with the password form and a message.
    const other = await browser.newContext();
    const again = await other.newPage();
    await again.goto(url!);
    const login = again.getByTestId("login");
    await expect(login).toBeVisible();
    await expect(login.getByRole("alert")).toHaveText(/already used or has expired/);
    await expect(login.getByRole("button", { name: "Sign in" })).toBeEnabled();
    expect(again.url()).not.toContain(token!);
    await shoot(again, "login-link-used");
    await other.close();

    // The token was printed once, in the banner, and in no log line.
    const logLines = stdout.split("\n").filter((l) => l.startsWith("{"));
    expect(logLines.some((l) => l.includes('"msg":"request"') && l.includes("/api/v1/auth/sign-in-link"))).toBe(true);
    for (const line of logLines) expect(line).not.toContain(token!);
    expect(stdout.split(token!)).toHaveLength(2);
  });
});

/** The login screen, light, dark and phone: into $SVC_SHOTS_DIR/first-start to look at, and into docs/screenshots with SVC_SCREENSHOTS=1. */
async function shoot(page: Page, name: string) {
  const out = shotsDir("first-start");
  if (!out && !process.env.SVC_SCREENSHOTS) return;
  const shots: [string, { width: number; height: number }, "light" | "dark"][] = [
    ["light", { width: 1200, height: 760 }, "light"],
    ["dark", { width: 1200, height: 760 }, "dark"],
    ["phone", { width: 390, height: 760 }, "light"],
  ];
  for (const [variant, viewport, scheme] of shots) {
    await page.setViewportSize(viewport);
    // A host sets the scheme with svc:action:set-color-scheme; opened on its own, the page is set directly.
    await page.evaluate((s) => document.documentElement.setAttribute("data-color-scheme", s), scheme);
    const file = `${name}-${variant}.png`;
    if (out) await page.screenshot({ path: `${out}/${file}` });
    if (process.env.SVC_SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/${file}` });
  }
}
