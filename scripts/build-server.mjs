// @ts-check
/**
 * The platform server as one ES module, dist/server/main.mjs, so that `npm start` loads plain
 * JavaScript (no TypeScript transform of several hundred files on every start), with the
 * pure-JavaScript packages it uses bundled in. Each source file's `import.meta.url` is rewritten
 * to the URL of its own source file, computed from the bundle's location: the files it finds
 * beside itself (migrations, the demo's data model, the Python worker) are found where they
 * are, and a moved checkout still works.
 */
import { readdirSync, rmSync } from "node:fs";
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
    b.onLoad({ filter: /[\\/](src|e2e)[\\/].*\.tsx?$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const fromBundle = path.relative(path.dirname(outfile), args.path).split(path.sep).join("/");
      const own = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
      return { contents: source.replaceAll("import.meta.url", own), loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
});

/**
 * Writes the bundle of src/server/launch.ts (dist/server/main.mjs unless told otherwise), or of
 * another entry that starts the platform; returns its path.
 * @param {string} [outfile]
 * @param {string} [entry]
 */
export async function buildServer(outfile = SERVER_BUNDLE, entry = path.join(root, "src", "server", "launch.ts")) {
  await build({
    entryPoints: [entry],
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

/** @type {Map<string, { outfile: string, built: Promise<string> }>} */
const processBundles = new Map();

/**
 * A platform process's entry (src/server/main.ts, or a test's own node) bundled as `npm start`
 * runs the platform, for tests that start platform processes: each start then loads one file of
 * plain JavaScript (about 1 s of CPU) where `node --import tsx` transformed and loaded several
 * hundred modules (about 6 s). Built once per entry and process under node_modules/.cache (its
 * unbundled packages resolve from there), named by the process; the files of processes that
 * have ended are removed by the next process that builds one (a test runner's worker may be
 * ended without running its exit handlers).
 * @param {string} entry
 * @returns {Promise<string>}
 */
export function processBundle(entry) {
  let bundle = processBundles.get(entry);
  if (!bundle) {
    const dir = path.join(root, "node_modules", ".cache", "svc-server");
    if (processBundles.size === 0) removeEndedProcessBundles(dir);
    const outfile = path.join(dir, `${path.basename(entry, path.extname(entry))}-${process.pid}-${processBundles.size}.mjs`);
    bundle = { outfile, built: buildServer(outfile, entry) };
    processBundles.set(entry, bundle);
  }
  return bundle.built;
}

/** @param {string} dir */
function removeEndedProcessBundles(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/-(\d+)-\d+\.mjs(\.map)?$/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (e) {
      if (/** @type {NodeJS.ErrnoException} */ (e).code === "ESRCH") rmSync(path.join(dir, name), { force: true });
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer();
