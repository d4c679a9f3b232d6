import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/** The demo host page: a customer's app on another origin, built with the host kit only. */
export default defineConfig({
  root: fileURLToPath(new URL("./src/server/demo/host-page", import.meta.url)),
  base: "/",
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL("./dist/demo-host", import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
});
