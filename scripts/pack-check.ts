/**
 * Builds the library (dist/lib: JS + .d.ts of client, protocol, host, schema, cli), packs the
 * package with `npm pack`, installs the tarball into a throwaway project from the local npm
 * cache (`npm ci --offline` with a lockfile of our own lockfile's production entries; from the
 * registry when that fails), type-checks a file that imports every entry (NodeNext resolution, as a Node ESM
 * consumer sees it), imports the client at run time and runs the `svc` bin.
 *
 *   npx tsx scripts/pack-check.ts            build, pack, install, check
 *   npx tsx scripts/pack-check.ts --build    build dist/lib only
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LIB = path.join(ROOT, "dist", "lib");
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");

/** Compiles dist/lib and makes its relative imports explicit (`./x` → `./x.js`), as Node ESM requires. */
export async function buildLib(): Promise<void> {
  await rm(LIB, { recursive: true, force: true });
  await run(process.execPath, [TSC, "-p", path.join(ROOT, "tsconfig.lib.json")], { cwd: ROOT });
  for (const file of await walk(LIB)) {
    if (!/\.(js|d\.ts)$/.test(file)) continue;
    const text = await readFile(file, "utf8");
    const fixed = text.replace(/((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']*)(["'])/g, (m, pre: string, spec: string, post: string) => {
      if (/\.(js|mjs|json)$/.test(spec)) return m;
      const target = path.resolve(path.dirname(file), spec);
      if (existsSync(target + ".js") || existsSync(target + ".d.ts")) return `${pre}${spec}.js${post}`;
      if (existsSync(path.join(target, "index.js")) || existsSync(path.join(target, "index.d.ts"))) return `${pre}${spec}/index.js${post}`;
      return m;
    });
    if (fixed !== text) await writeFile(file, fixed);
  }
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(full)));
    else out.push(full);
  }
  return out;
}

const CONSUMER = `import { createSvcPlatformClient, createSvcCloudClient, paginate, upsertWorkbookBySlug, type PlatformApiSchemas, type SvcPlatformClientConfig } from "svc";
import { SvcPlatformApiProvider, useSvcPlatformApiQuery } from "svc/react-query";
import * as protocol from "svc/protocol";
import * as host from "svc/host";
import type { SvcEmbedElement, SvcEmbedEventMap } from "svc/host/svc-embed";

const config: SvcPlatformClientConfig = { baseUrl: "https://acme.example.com", token: "svc_x", credentials: "omit" };
const client = createSvcPlatformClient(config);
export async function names(): Promise<string[]> {
  const { data } = await client.GET("/api/v1/deployments", { params: { query: { first: 10 } } });
  return (data?.items ?? []).map((d: PlatformApiSchemas.Deployment) => d.name);
}
// @ts-expect-error: no such path (fails when the types resolved to any)
void client.GET("/api/v1/no-such-path");
export const same: boolean = createSvcCloudClient === createSvcPlatformClient;
export const helpers = [paginate, upsertWorkbookBySlug, SvcPlatformApiProvider, useSvcPlatformApiQuery];
export const entries = [Object.keys(protocol).length, Object.keys(host).length];
export const embedEvents: (keyof SvcEmbedEventMap)[] = ["svc-ready", "svc-action-result"];
export const setFilter = (el: SvcEmbedElement) => el.setFilter('f_orders.status={"value":"shipped"}').then((r) => r.status);
`;

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  [key: string]: unknown;
}

/**
 * The throwaway project's dependencies and lockfile: the packed tarball, and for what it depends
 * on the entries of our own lockfile that a production install holds (the same tree npm resolves
 * for the package's `dependencies`, since they are ours), plus @types/react for the type check. A
 * dependency the package imports but declares only for development is not there, and the check
 * fails as a consumer's install would.
 */
async function consumerLock(tarball: string) {
  const pkg = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as {
    version: string;
    license: string;
    dependencies: Record<string, string>;
    bin: Record<string, string>;
    engines: Record<string, string>;
  };
  const ours = JSON.parse(await readFile(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const forTypes = new Set(["node_modules/@types/react", "node_modules/csstype"]);
  const dependencies = { svc: `file:../${tarball}`, "@types/react": ours.packages["node_modules/@types/react"]!.version! };
  const packages: Record<string, unknown> = {
    "": { name: "svc-consumer", dependencies },
    "node_modules/svc": {
      version: pkg.version,
      resolved: `file:../${tarball}`,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [key, entry] of Object.entries(ours.packages)) {
    if (!key.startsWith("node_modules/")) continue;
    const { dev, devOptional, ...rest } = entry;
    if (forTypes.has(key) || (!dev && !devOptional)) packages[key] = rest;
    // Optional in production (a platform's binary), needed in development.
    else if (devOptional) packages[key] = { ...rest, optional: true };
  }
  return { dependencies, lockfile: { name: "svc-consumer", lockfileVersion: 3, requires: true, packages } };
}

/** Packs, installs into a throwaway project and checks it; resolves when everything passed. */
export async function packCheck(log: (line: string) => void = console.log): Promise<void> {
  const started = performance.now();
  await buildLib();
  log(`built dist/lib in ${Math.round(performance.now() - started)} ms`);
  const work = await mkdtemp(path.join(os.tmpdir(), "svc-pack-"));
  try {
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", work], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const tarball = path.join(work, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
    log(`packed ${path.basename(tarball)} (${Math.round((await stat(tarball)).size / 1024)} KiB)`);

    const project = path.join(work, "consumer");
    await run("mkdir", ["-p", project]);
    await writeFile(
      path.join(project, "tsconfig.json"),
      JSON.stringify(
        {
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            lib: ["ES2023", "DOM"],
            types: [],
          },
          files: ["check.ts"],
        },
        null,
        2,
      ),
    );
    await writeFile(path.join(project, "check.ts"), CONSUMER);
    const lock = await consumerLock(path.basename(tarball));
    await writeFile(
      path.join(project, "package.json"),
      JSON.stringify({ name: "svc-consumer", private: true, type: "module", dependencies: lock.dependencies }, null, 2),
    );
    await writeFile(path.join(project, "package-lock.json"), JSON.stringify(lock.lockfile, null, 2));
    const quiet = ["--no-audit", "--no-fund", "--ignore-scripts", "--omit=dev"];
    try {
      // The versions our own lockfile holds, from the npm cache `npm ci` filled: no registry needed.
      await run("npm", ["ci", "--offline", ...quiet], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
    } catch {
      log("offline install from the lockfile failed; installing from the registry");
      await rm(path.join(project, "package-lock.json"), { force: true });
      await run("npm", ["install", "--prefer-offline", ...quiet], { cwd: project, maxBuffer: 64 * 1024 * 1024 });
    }
    log(`installed in ${Math.round(performance.now() - started)} ms`);

    await run(process.execPath, [TSC, "-p", project], { cwd: project }).catch((err: { stdout?: string }) => {
      throw new Error(`the packed package does not type-check in a consumer project:\n${err.stdout ?? err}`);
    });
    const { stdout: runtime } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { createSvcPlatformClient } from "svc"; import "svc/protocol"; import "svc/host"; console.log(typeof createSvcPlatformClient({ baseUrl: "http://x" }).GET);`,
      ],
      { cwd: project },
    );
    if (runtime.trim() !== "function") throw new Error(`importing the packed client failed: ${runtime}`);
    const { stdout: help } = await run(path.join(project, "node_modules", ".bin", "svc"), ["--help"], { cwd: project });
    if (!help.includes("workbooks")) throw new Error(`the svc bin did not run: ${help}`);
    log(`pack check passed in ${Math.round(performance.now() - started)} ms`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  (process.argv.includes("--build") ? buildLib() : packCheck()).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
