import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { compressAssets } from "./scripts/compress-assets.mjs";

type ModuleInfoOf = (id: string) => { importedIds: readonly string[] } | null;
const graphs = new Map<string, Set<string>>();
/** The modules `entry` imports statically, transitively (itself included). */
function staticGraph(entry: string, getModuleInfo: ModuleInfoOf): Set<string> {
  const start = path.resolve(import.meta.dirname, entry);
  let seen = graphs.get(start);
  if (seen) return seen;
  seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const next of getModuleInfo(queue.pop()!)?.importedIds ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  graphs.set(start, seen);
  return seen;
}

/** A code-splitting group of the modules `entry` imports statically (and of what they import). */
function graphGroup(name: string, entry: string, priority: number) {
  return {
    name: (id: string, ctx: { getModuleInfo: ModuleInfoOf }) => (staticGraph(entry, (m) => ctx.getModuleInfo(m)).has(id) ? name : null),
    debugName: name,
    priority,
  };
}

/**
 * The embed in a few chunks, each loaded once and evaluated in a task of its own: what the boot
 * needs before `ready` (one request), React, the app (router, query cache, shell), the dashboard
 * surface (grid, widgets); vega and topojson on their own. Browsers open six connections to a
 * host over HTTP/1.1: a dozen small chunks at load would queue behind each other and in front
 * of the dashboard's own requests. A higher priority takes a module first.
 */
const CHUNK_GROUPS = [
  graphGroup("boot", "src/embed/boot.ts", 50),
  { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 40 },
  // Vega's dependency, and the map widget's: its own small chunk, so a map loads no vega on the page.
  { name: "topojson", test: /node_modules[\\/]topojson-client[\\/]/, priority: 35 },
  { name: "vega", test: /node_modules[\\/](vega|vega-[a-z-]+|d3-[a-z-]+|fast-json-patch|json-stringify-pretty-compact)[\\/]/, priority: 30 },
  graphGroup("app", "src/embed/app.tsx", 20),
  graphGroup("dashboard", "src/embed/surfaces/dashboard/dashboard-surface.tsx", 10),
];

/**
 * The gzip and brotli forms of the build's assets (scripts/compress-assets.mjs). With
 * `SVC_BROTLI=later` (what `npm start` builds with) only gzip is written here, and brotli once
 * the platform is up.
 */
function precompressAssets(): Plugin {
  let outDir = "";
  return {
    name: "svc-precompress-assets",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      await compressAssets(path.join(outDir, "assets"), { gzip: true, brotli: process.env.SVC_BROTLI !== "later" });
    },
  };
}

/**
 * Builds the embed app (index.html + src/embed/boot.ts, which loads src/embed/app.tsx) into dist/embed, served by the
 * platform at /embed/*. Vega and the export libraries stay out of the start-up bundle: they
 * are only reached through dynamic import, and vega gets a chunk of its own.
 */
export default defineConfig({
  root: ".",
  base: "/embed/",
  publicDir: "public",
  plugins: [react(), precompressAssets()],
  build: {
    outDir: "dist/embed",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        codeSplitting: { groups: CHUNK_GROUPS },
      },
    },
  },
  // The chart worker (src/embed/widgets/chart/chart-worker.ts) is a module worker.
  worker: { format: "es" },
  server: { port: 5173 },
});
