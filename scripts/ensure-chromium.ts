import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Debian's Chromium: what `svc host-check` and the screenshot script drive by default. */
export const CHROMIUM_PATH = process.env.SVC_CHROMIUM_PATH || "/usr/bin/chromium";

/**
 * Debian's Chromium headless shell (package `chromium-headless-shell`): the same engine without
 * the browser's windowing layers. The browser tests run in it: a demo dashboard load costs
 * 0.7 s of its CPU against 1.6 s in the full browser's headless mode (docs/benchmarks.md).
 */
export const HEADLESS_SHELL_PATH = "/usr/lib/chromium/chromium-headless-shell";

/** The browser the Playwright suite launches: `SVC_CHROMIUM_PATH` when set (an empty value is unset), else the headless shell. */
export const E2E_CHROMIUM_PATH = process.env.SVC_CHROMIUM_PATH || HEADLESS_SHELL_PATH;

/**
 * The browser tests run Debian's Chromium headless shell, and the host check's tests the full
 * Chromium. When either is missing and we are root, install the Debian packages; otherwise stop
 * with the one command to run.
 */
export function ensureChromium(log: (line: string) => void = (l) => process.stdout.write(l + "\n")): string {
  const wanted = [
    { path: CHROMIUM_PATH, pkg: "chromium" },
    { path: E2E_CHROMIUM_PATH, pkg: "chromium-headless-shell" },
  ].filter((w) => !existsSync(w.path));
  if (wanted.length === 0) return E2E_CHROMIUM_PATH;
  const pkgs = wanted.map((w) => w.pkg);
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(`Chromium is not installed at ${wanted.map((w) => w.path).join(" and ")}. Install it with: sudo apt-get install -y ${pkgs.join(" ")}`);
  }
  log(`Chromium is missing: installing Debian's ${pkgs.join(" and ")} (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "--no-install-recommends", ...pkgs, "fonts-dejavu-core"],
  ]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (exit ${r.status})`);
  }
  for (const w of wanted) if (!existsSync(w.path)) throw new Error(`apt-get installed ${w.pkg} but ${w.path} is still missing`);
  return E2E_CHROMIUM_PATH;
}
