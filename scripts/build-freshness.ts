import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Newest modification time under the given paths (files or folders), skipping tests. */
export function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const entry of readdirSync(p)) visit(path.join(p, entry));
    } else if (!/\.test\.tsx?$/.test(p)) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

/** Inputs of the browser builds (embed app and demo host page). */
export const BUILD_INPUTS = [
  "index.html",
  "vite.config.ts",
  "vite.demo-host.config.ts",
  "public",
  "src/embed",
  "src/protocol",
  "src/host",
  "src/schema",
  "src/client",
  "src/server/demo/host-page",
  "package-lock.json",
];
export const BUILD_OUTPUTS = ["dist/embed/index.html", "dist/demo-host/index.html"];

/** True when a build output is missing or older than an input. */
export function buildIsStale(root: string): boolean {
  const outputs = BUILD_OUTPUTS.map((p) => path.join(root, p));
  if (outputs.some((p) => !existsSync(p))) return true;
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  return newestMtime(BUILD_INPUTS.map((p) => path.join(root, p))) > built;
}
