/**
 * Shared set-up of the browser benchmarks: the e2e rig (real platform, demo, fixture origins)
 * on ports of its own, in a process of its own (bench/rig-server.ts), Debian's Chromium through
 * Playwright, signed sessions, percentiles. The embed app must be built first (`npm run build`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { chromium, type Browser } from "@playwright/test";
import { rigAddresses, type RigAddresses } from "../e2e/support/env";

export interface BenchRig {
  addresses: RigAddresses;
  browser: Browser;
  publicId: string;
  deploymentId: number;
  /** A fresh single-use signed session id. */
  session(): Promise<string>;
  /** The dashboard iframe URL for a fresh session. */
  dashboardSrc(): Promise<string>;
  close(): Promise<void>;
}

/** Starts the rig with its platform on `basePort` (default 18180, clear of the e2e suite's 18080). */
export async function startBenchRig(basePort = 18180): Promise<BenchRig> {
  if (!existsSync("dist/embed/index.html")) throw new Error("build the embed app first: npm run build");
  const addresses = rigAddresses(basePort);
  const rig = await startRigServer(basePort);
  const browser = await chromium.launch({
    executablePath: process.env.SVC_CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const config = (await (await fetch(`${addresses.demoHostUrl}/config.json`)).json()) as { dashboardPublicId: string; deploymentId: number };
  const session = async () => {
    const res = await fetch(`${addresses.platformUrl}/api/v1/embed/generate-session`, {
      method: "POST",
      headers: { authorization: `Bearer ${addresses.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ deploymentId: config.deploymentId, externalId: "ada@acme.example", embedTenantName: "acme-corp" }),
    });
    if (!res.ok) throw new Error(`generate-session answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { sessionId: string }).sessionId;
  };
  return {
    addresses,
    browser,
    publicId: config.dashboardPublicId,
    deploymentId: config.deploymentId,
    session,
    async dashboardSrc() {
      return `${addresses.platformUrl}/embed/dashboard/${config.dashboardPublicId}?session=${encodeURIComponent(await session())}`;
    },
    async close() {
      await browser.close();
      await stopRigServer(rig);
    },
  };
}

/** A fresh signed session of an acme creator (creatorMode), for the app. */
export async function creatorSession(platformUrl: string, adminToken: string, deploymentId: number): Promise<string> {
  const res = await fetch(`${platformUrl}/api/v1/embed/generate-session`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ deploymentId, externalId: "ada@acme.example", embedTenantName: "acme-corp", creatorMode: true }),
  });
  if (!res.ok) throw new Error(`generate-session answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { sessionId: string }).sessionId;
}

/** Starts bench/rig-server.ts and resolves once it says `ready` (rejects if it ends first). */
export function startRigServer(basePort: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/rig-server.ts", String(basePort)], { stdio: ["ignore", "pipe", "inherit"] });
  // A bench that ends early (an error, Ctrl-C) takes its platform with it.
  process.once("exit", () => child.kill("SIGTERM"));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line.trim() === "ready") resolve(child);
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => reject(new Error(`the bench platform ended before it was ready (${code ?? signal})`)));
  });
}

export function stopRigServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * tsx compiles with esbuild's keepNames, which wraps named functions in a `__name` helper
 * that does not exist in the browser; functions handed to page.evaluate need it defined.
 */
export const KEEP_NAMES_SHIM = { content: "globalThis.__name = (f) => f;" };

/** The q-quantile (0..1) of `values` by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/** Reads `--name value` from the command line. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i > 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(value) ? value : fallback;
}
