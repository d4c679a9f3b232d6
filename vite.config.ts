import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * Builds the embed app (index.html + src/embed/main.tsx) into dist/embed, served by the
 * platform at /embed/*. Vega and the export libraries stay out of the start-up bundle: they
 * are only reached through dynamic import, and vega gets a chunk of its own.
 */
export default defineConfig({
  root: ".",
  base: "/embed/",
  publicDir: "public",
  plugins: [react()],
  build: {
    outDir: "dist/embed",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        manualChunks(id: string) {
          if (!id.includes("node_modules")) return undefined;
          if (/node_modules\/(vega|vega-[a-z-]+|d3-[a-z-]+|fast-json-patch|json-stringify-pretty-compact|topojson-client)\//.test(id)) return "vega";
          return undefined;
        },
      },
    },
  },
  server: { port: 5173 },
});
