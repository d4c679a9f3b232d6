import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL("./src/server/demo/host-page", import.meta.url));
const examples = ["html", "vue", "angular"].map((name) => `${root}/examples/web-component/${name}.html`);

/**
 * The demo host page: a customer's app on another origin, built with the host kit only; and the
 * `<svc-embed>` example pages (examples/web-component/*.html, docs/embedding.md "Web component").
 */
export default defineConfig({
  root,
  base: "/",
  publicDir: false,
  // The Vue example compiles its template in the browser: the build of Vue with the compiler.
  resolve: { alias: [{ find: /^vue$/, replacement: "vue/dist/vue.esm-bundler.js" }] },
  define: { __VUE_OPTIONS_API__: "true", __VUE_PROD_DEVTOOLS__: "false", __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false" },
  build: {
    outDir: fileURLToPath(new URL("./dist/demo-host", import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: { input: [`${root}/index.html`, ...examples] },
  },
});
