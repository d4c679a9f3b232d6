// @ts-check
/**
 * The platform server as one ES module, dist/server/main.mjs, so that `npm start` loads plain
 * JavaScript (no TypeScript transform of several hundred files on every start), with the
 * pure-JavaScript packages it uses bundled in. Each source file's `import.meta.url` is rewritten
 * to the URL of its own source file, computed from the bundle's location: the files it finds
 * beside itself (migrations, the demo's data model, the Python worker) are found where they
 * are, and a moved checkout still works.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
export const SERVER_BUNDLE = path.join(root, "dist", "server", "main.mjs");

/** Packages that find files beside their own code (native addons, wasm, workers): imported from node_modules. */
const NOT_BUNDLED = [
  "@duckdb/*",
  "@electric-sql/pglite",
  "@electric-sql/pglite/*",
  "@node-rs/argon2",
  "pyodide",
  "esbuild",
  "vite",
  "tsx",
  "tsx/*",
  "@vitejs/*",
];

/**
 * @param {string} outfile
 * @returns {import("esbuild").Plugin}
 */
const ownImportMetaUrl = (outfile) => ({
  name: "svc-own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const fromBundle = path.relative(path.dirname(outfile), args.path).split(path.sep).join("/");
      const own = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
      return { contents: source.replaceAll("import.meta.url", own), loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
});

/**
 * Writes the bundle of src/server/launch.ts (dist/server/main.mjs unless told otherwise); returns its path.
 * @param {string} [outfile]
 */
export async function buildServer(outfile = SERVER_BUNDLE) {
  await build({
    entryPoints: [path.join(root, "src", "server", "launch.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Pure-JavaScript packages are bundled (loading hundreds of small module files was most of a
    // start); those that load files of their own (native addons, wasm) stay in node_modules.
    external: NOT_BUNDLED,
    // CommonJS packages in an ES module bundle call require().
    banner: { js: 'import { createRequire as __svcCreateRequire } from "node:module"; const require = __svcCreateRequire(import.meta.url);' },
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [ownImportMetaUrl(outfile)],
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer();
