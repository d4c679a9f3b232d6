/**
 * `npm run dev` (scripts/dev.ts): the demo host page on its own origin frames the embed from
 * the dev server, the signed session starts and `ready` reaches the host's event log; a saved
 * component shows in the frame without a reload of the host page or of the frame (hot module
 * replacement), under the embed pages' policy widened for Vite's client only; a change no
 * component accepts reloads the host page, which frames the embed with a new session.
 *
 * It runs in a copy of the sources (the repository's node_modules linked in, entry by entry),
 * so the component edited is never the work tree's, and Vite starts with no cache of its own,
 * as in a fresh clone. Its own free ports and data directory; prints the times it measured.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";

const repo = fileURLToPath(new URL("..", import.meta.url));
const COPIED = ["package.json", "tsconfig.json", "index.html", "public", "src", "scripts", "vite.config.ts", "vite.demo-host.config.ts"];
const COMPONENT = "src/embed/grid/widget-frame.tsx";
const TITLE = '<h2 className="svc-widget-title">{props.title}</h2>';

let work = "";
let child: ChildProcess | null = null;
let stdout = "";
let ports = { platform: 0, host: 0 };
let bannerMs = 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A GET with the path exactly as written (fetch would normalise `..`). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "localhost", port, path: rawPath }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test.describe("npm run dev", () => {
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    work = mkdtempSync(path.join(tmpdir(), "svc-dev-"));
    for (const entry of COPIED) cpSync(path.join(repo, entry), path.join(work, entry), { recursive: true });
    // The installed packages, each linked; Vite's cache (node_modules/.vite) is the copy's own.
    mkdirSync(path.join(work, "node_modules"));
    for (const name of readdirSync(path.join(repo, "node_modules"))) {
      if (!name.startsWith(".vite")) symlinkSync(path.join(repo, "node_modules", name), path.join(work, "node_modules", name));
    }
    ports = { platform: await freePort(), host: await freePort() };
    const started = Date.now();
    // Only these settings (no DATABASE_URL): what a clean clone starts with; its own process group, stopped as one.
    child = spawn("npm", ["run", "dev"], {
      cwd: work,
      detached: true,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        PORT: String(ports.platform),
        SVC_DEMO_HOST_PORT: String(ports.host),
        SVC_DEMO_ROWS: "1000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stdout += d.toString()));
    let exited = false;
    child.once("exit", () => (exited = true));
    for (let i = 0; i < 600 && !exited && !/Demo host page: \S+/.test(stdout); i++) await new Promise((r) => setTimeout(r, 250));
    bannerMs = Date.now() - started;
    expect(stdout, "the banner").toContain("Dev mode:");
    expect(stdout).toContain(`Demo host page: http://127.0.0.1:${ports.host}/`);
    expect(stdout).toContain(`Platform API:   http://localhost:${ports.platform}/api/v1`);
  });

  test.afterAll(async () => {
    // What Vite did (page reloads, updates, dependency optimisation), for a failure's record.
    console.log(
      stdout
        .split("\n")
        .filter((l) => l.includes("[vite]"))
        .join("\n"),
    );
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child!.once("exit", r));
      // npm, tsx watch and the server: the whole group.
      process.kill(-child.pid, "SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test("serves the demo host page and the embed from the sources, and a saved component shows in the frame without a reload", async ({ page }) => {
    test.setTimeout(180_000);
    const violations: string[] = [];
    // The frame's Vite client says "[vite] connected." once its hot-reload socket is open: an
    // update sent before that is never seen by the frame (a busy machine can draw the widgets first).
    let frameConnected = false;
    // What the frame said (Vite's client, React): the record a failed hot update is reported with.
    const frameLog: string[] = [];
    page.on("console", (m) => {
      if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
      if (!m.location().url.startsWith(`http://localhost:${ports.platform}/`)) return;
      frameLog.push(`${m.type()}: ${m.text().slice(0, 300)}`);
      if (m.text().includes("[vite] connected")) frameConnected = true;
    });
    page.on("pageerror", (e) => frameLog.push(`pageerror: ${e.message.slice(0, 300)}`));
    const loadStarted = Date.now();
    await page.goto(`http://127.0.0.1:${ports.host}/`);
    await expect(page.locator("iframe#embed")).toHaveAttribute("src", new RegExp(`^http://localhost:${ports.platform}/embed/dashboard/\\w+\\?`));
    // Signed embedding as in production: the host's backend minted the session, the frame said ready.
    await expect(page.locator("#log")).toContainText("svc:event:ready", { timeout: 120_000 });
    const frame = page.frameLocator("iframe#embed");
    const title = frame.locator(".svc-widget-title").first();
    await expect(title).toBeVisible({ timeout: 60_000 });
    const readyMs = Date.now() - loadStarted;
    // The developer's next look at the page: the first load may have come while Vite was still
    // optimising the dependencies it found on it (a busy machine); the edit is made on this one.
    frameConnected = false;
    await page.reload();
    await expect(page.locator("#log")).toContainText("svc:event:ready", { timeout: 60_000 });
    await expect(title).toBeVisible({ timeout: 60_000 });
    const before = (await title.textContent()) ?? "";
    expect(before).not.toContain("(edited)");
    // Markers that a reload of the host page or of the frame would wipe.
    await page.evaluate(() => ((window as unknown as { hostMarker: number }).hostMarker = 1));
    const embed = page.frames().find((f) => f.url().includes("/embed/dashboard/"))!;
    await embed.evaluate(() => ((window as unknown as { frameMarker: number }).frameMarker = 1));

    await expect.poll(() => frameConnected, { message: "the frame's Vite client connected", timeout: 30_000 }).toBe(true);
    const file = path.join(work, COMPONENT);
    const source = readFileSync(file, "utf8");
    expect(source, `${COMPONENT} renders the widget title as the test expects`).toContain(TITLE);
    const saved = Date.now();
    writeFileSync(file, source.replace(TITLE, '<h2 className="svc-widget-title">{props.title} (edited)</h2>'));
    await expect(title, `the frame's console:\n${frameLog.join("\n")}`).toHaveText(`${before} (edited)`, { timeout: 30_000 });
    const hotMs = Date.now() - saved;

    expect(await page.evaluate(() => (window as unknown as { hostMarker?: number }).hostMarker)).toBe(1);
    expect(await embed.evaluate(() => (window as unknown as { frameMarker?: number }).frameMarker)).toBe(1);
    await expect(page.locator("#log")).toContainText("svc:event:ready");
    expect(violations).toEqual([]);

    // A change no component accepts (the boot entry) reloads the frame, and with it the demo
    // host page (the frame's session id is spent): a new session, `ready` again, the edit kept.
    const boot = path.join(work, "src/embed/boot.ts");
    const hostReloaded = page.waitForEvent("load", { timeout: 60_000 });
    writeFileSync(boot, readFileSync(boot, "utf8") + "\n// edited\n");
    await hostReloaded;
    expect(await page.evaluate(() => (window as unknown as { hostMarker?: number }).hostMarker)).toBeUndefined();
    await expect(page.locator("#log")).toContainText("svc:event:ready", { timeout: 60_000 });
    await expect(frame.locator(".svc-widget-title").first()).toHaveText(`${before} (edited)`, { timeout: 60_000 });
    expect(violations).toEqual([]);
    console.log(
      `npm run dev: banner after ${bannerMs} ms; demo host page to a widget title in the frame ${readyMs} ms; save to change in the frame ${hotMs} ms`,
    );
  });

  test("never serves a file of the data directory or outside the sources through the dev server", async () => {
    const key = path.join(work, ".data", "secret.key");
    const secret = readFileSync(key, "utf8").trim();
    expect(secret.length).toBeGreaterThan(10);
    for (const p of [
      `/embed/@fs${key}`,
      "/embed/src/../.data/secret.key",
      "/embed/src/%2e%2e/.data/secret.key",
      "/embed/.data/secret.key",
      "/embed/package.json",
    ]) {
      const res = await rawGet(ports.platform, p);
      expect(res.body, p).not.toContain(secret);
      expect(res.body, p).not.toContain('"devDependencies"');
    }
    // What the dev server does serve: the embed's modules, its client, the public files.
    expect((await rawGet(ports.platform, "/embed/src/embed/boot.ts")).status).toBe(200);
    expect((await rawGet(ports.platform, "/embed/@vite/client")).status).toBe(200);
    expect((await rawGet(ports.platform, "/embed/favicon.svg")).body).toContain("<svg");
  });
});
