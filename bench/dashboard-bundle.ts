/**
 * JavaScript the embed downloads before `ready`: the entry chunk of dist/embed/index.html and
 * every chunk it imports statically (transitively), gzip-compressed one by one as a server
 * would send them. Dynamic imports (vega, exports, other surfaces) are not counted.
 *   npm run build && npx tsx bench/dashboard-bundle.ts [--json]
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { figure, printFigures, say, valueAtMost } from "./figures";

export interface StartupBundle {
  /** Chunk file names (relative to dist/embed), entry first. */
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

/** Static `import … from "./x.js"` and side-effect `import "./x.js"` of a built chunk (not `import(...)`). */
function staticImportsOf(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g)) found.add(m[1]!);
  for (const m of code.matchAll(/\bexport\s*(?:\*|\{[^}]*\})\s*from\s*["']([^"']+\.js)["']/g)) found.add(m[1]!);
  return [...found];
}

/** Measures the start-up JavaScript of a built embed app (default dist/embed). */
export function measureStartupBundle(distDir = "dist/embed"): StartupBundle {
  const html = readFileSync(path.join(distDir, "index.html"), "utf8");
  const entry = /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error(`no module entry in ${distDir}/index.html`);
  const toFile = (url: string) => url.replace(/^\/embed\//, "");
  const queue = [toFile(entry)];
  // Chunks the page preloads are fetched before ready as well.
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) queue.push(toFile(m[1]!));
  const seen = new Set<string>();
  let rawBytes = 0;
  let gzipBytes = 0;
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(distDir, file));
    rawBytes += code.length;
    gzipBytes += gzipSync(code, { level: 9 }).length;
    for (const spec of staticImportsOf(code.toString("utf8"))) queue.push(path.posix.join(path.posix.dirname(file), spec));
  }
  return { files: [...seen], rawBytes, gzipBytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bundle = measureStartupBundle();
  for (const file of bundle.files) say(`  ${file}`);
  say(`JS before ready: ${(bundle.rawBytes / 1000).toFixed(1)} kB raw, ${(bundle.gzipBytes / 1000).toFixed(1)} kB gzip (goal ≤ 120 kB gzip)`);
  printFigures("dashboard-bundle", [figure("JavaScript before ready, gzip", bundle.gzipBytes / 1000, "kB", { goal: valueAtMost(120, "kB") })]);
}
