import { availableParallelism } from "node:os";
import { defineConfig } from "@playwright/test";
import { E2E } from "./e2e/support/env";
import { E2E_CHROMIUM_PATH } from "./scripts/ensure-chromium";

export default defineConfig({
  testDir: "e2e",
  // e2e/cluster is the two-node suite of vitest.cluster.config.ts (node processes, no browser).
  testIgnore: "cluster/**",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // Two per core: a browser test spends most of its time waiting on the page, the server and
  // its own expectations (the whole run used about half a core with one worker per core).
  workers: Number(process.env.SVC_E2E_WORKERS) || Math.max(2, availableParallelism() * 2),
  retries: process.env.CI ? 1 : 0,
  // The JSON report is only written when the suite runner asks for it (scripts/test.ts).
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      // Debian's headless shell (scripts/ensure-chromium.ts); Playwright adds `--headless` itself.
      executablePath: E2E_CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "off",
    reducedMotion: "reduce",
  },
  webServer: {
    // The rig bundled and run (e2e/support/serve.mjs): it starts in about 4 s where tsx took 5.5.
    command: "node e2e/support/serve.mjs",
    url: `${E2E.platformUrl}/api/v1/openapi.json`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
