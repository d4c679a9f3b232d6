import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

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
 * Writes a gzip and a brotli form beside every compressible asset of the build, which the
 * platform serves to browsers that accept them (serveStatic `precompressed`): the embed's code
 * travels at about a third of its size without compressing it per request.
 */
function precompressAssets(): Plugin {
  let outDir = "";
  return {
    name: "svc-precompress-assets",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const assets = path.join(outDir, "assets");
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|json|svg)$/.test(name)) continue;
        const file = path.join(assets, name);
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(file + ".gz", gzipSync(content, { level: 9 }));
        writeFileSync(
          file + ".br",
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
        );
      }
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
