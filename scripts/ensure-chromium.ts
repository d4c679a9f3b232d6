import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.SVC_CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The browser tests run Debian's Chromium. When it is missing and we are root, install the
 * `chromium` package; otherwise stop with the one command to run.
 */
export function ensureChromium(log: (line: string) => void = (l) => process.stdout.write(l + "\n")): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}. Install it with: sudo apt-get install -y chromium`);
  }
  log("Chromium is missing: installing Debian's chromium package (apt-get)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "--no-install-recommends", "chromium", "fonts-dejavu-core"],
  ]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (exit ${r.status})`);
  }
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} is still missing`);
  return CHROMIUM_PATH;
}
