/**
 * The dev servers of `npm run dev` (scripts/dev.ts): Vite in middleware mode in front of the
 * platform's server (the embed at /embed/*) and of the demo host's (the demo host page), each
 * with its hot-reload WebSocket on that same server. Vite answers its own requests only (the
 * modules from their sources, its client, public files); the app answers the rest, the embed's
 * pages included, with the production headers (src/server/modules/embed-app/dev-csp.ts).
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer, mergeConfig, type InlineConfig, type UserConfig, type ViteDevServer } from "vite";
import type { DevFront, DevPlatform, DevServers } from "../src/server/dev-front";
import embedConfig from "../vite.config";
import demoHostConfig from "../vite.demo-host.config";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** What Vite writes as the nonce of its scripts and styles; each page gets a fresh one instead. */
const NONCE_PLACEHOLDER = "svc-dev-nonce";

/** Vite's own file-serving refusals (its default `server.fs.deny`), kept beside ours. */
const VITE_DENY = [".env", ".env.*", "*.{crt,pem}", "**/.git/**"];

/**
 * The request's path, or null when the path as sent is not its normal form (`..`, `%2e`,
 * `//`): such a request is the app's to answer, never a file's.
 */
export function requestPath(req: Pick<IncomingMessage, "url">): string | null {
  const raw = (req.url ?? "/").split("?")[0]!;
  let pathname: string;
  try {
    pathname = new URL(raw, "http://dev.invalid").pathname;
  } catch {
    return null;
  }
  return pathname === raw && !raw.includes("//") ? pathname : null;
}

function isFileIn(dir: string | false, rel: string): boolean {
  if (!dir || rel.endsWith("/")) return false;
  const file = path.join(dir, rel);
  return existsSync(file) && statSync(file).isFile();
}

interface FrontOptions {
  /** The build's configuration of this app (root, base, plugins, workers). */
  config: UserConfig;
  server: Server;
  platform: DevPlatform;
  /** The dev server's own paths, below the base: everything else goes to the app. */
  serves(rel: string, dirs: { root: string; publicDir: string | false }): boolean;
  /** Modules transformed before the first page asks for them. */
  warmup?: string[];
  /** The app's worker entries (globs below the root). */
  workers?: string[];
  /** Where Vite keeps the optimised dependencies, below the repository (one per app: each has its own root and configuration). */
  cacheDir: string;
}

async function createViteFront(opts: FrontOptions): Promise<DevFront & { vite: ViteDevServer }> {
  const root = path.resolve(repoRoot, opts.config.root ?? ".");
  const base = opts.config.base ?? "/";
  const publicDir = opts.config.publicDir === false ? false : path.resolve(root, opts.config.publicDir ?? "public");
  const vite = await createServer(
    mergeConfig(opts.config, {
      configFile: false,
      root,
      cacheDir: path.join(repoRoot, opts.cacheDir),
      appType: "custom",
      clearScreen: false,
      html: { cspNonce: NONCE_PLACEHOLDER },
      // The app's page and its workers (whose imports, vega's among them, Vite's scan does not
      // follow: found only when a chart draws, they would be optimised late and reload the
      // page); not the repository's other HTML (the other app, built copies, reports).
      optimizeDeps: { entries: ["index.html", ...(opts.workers ?? [])] },
      server: {
        middlewareMode: true,
        // The hot-reload WebSocket on the app's own server and origin, at the base path.
        ws: { server: opts.server },
        // Every request it answers is from a page of its own origin.
        cors: false,
        allowedHosts: [new URL(opts.platform.publicUrl).hostname],
        // The data directory holds the master key and the database: never a file to serve.
        fs: { deny: [...VITE_DENY, `${opts.platform.dataDir}/**`] },
        // Not sources: the database's files change all the time.
        watch: { ignored: [`${opts.platform.dataDir}/**`, "**/dist/**", "**/test-results/**", "**/playwright-report/**"] },
        warmup: { clientFiles: opts.warmup ?? [] },
      },
    } satisfies InlineConfig),
  );
  return {
    vite,
    handle(req, res, next) {
      const pathname = requestPath(req);
      const ping = req.headers.accept === "text/x-vite-ping";
      const own = pathname !== null && pathname.startsWith(base) && (ping || opts.serves(pathname.slice(base.length - 1), { root, publicDir }));
      if (own) vite.middlewares(req, res, next);
      else next();
    },
    async page(url) {
      const source = readFileSync(path.join(root, "index.html"), "utf8");
      const html = await vite.transformIndexHtml(url, source);
      const nonce = randomBytes(18).toString("base64");
      return { html: html.replaceAll(NONCE_PLACEHOLDER, nonce), nonce };
    },
    close: () => vite.close(),
  };
}

/** Calls `listener` whenever the dev server tells its pages to reload whole. */
function onFullReload(vite: ViteDevServer, listener: () => void) {
  const hot = vite.environments.client.hot;
  const send = hot.send.bind(hot) as (payload: unknown, data?: unknown) => void;
  hot.send = ((payload: unknown, data?: unknown) => {
    if ((payload as { type?: unknown } | null)?.type === "full-reload") listener();
    send(payload, data);
  }) as typeof hot.send;
}

/** Vite's paths (its client, virtual and optimised modules, files by absolute path) and the app's source files. */
const viteOwn = (rel: string) => rel.startsWith("/@") || rel.startsWith("/node_modules/");

/** The dev servers of `npm run dev`: the embed's and the demo host page's. */
export function createViteDevServers(): DevServers {
  let reloadHostPage = () => {};
  return {
    async embed(server, platform) {
      const front = await createViteFront({
        config: embedConfig,
        server,
        platform,
        // The sources under src/ and the public files; never another file of the repository.
        serves: (rel, { publicDir }) => viteOwn(rel) || rel.startsWith("/src/") || isFileIn(publicDir, rel),
        warmup: ["./src/embed/boot.ts", "./src/embed/app.tsx"],
        workers: ["src/embed/**/*-worker.ts"],
        cacheDir: "node_modules/.vite",
      });
      // A change no component accepts reloads the frame whole, and a reloaded frame has no
      // session: its id was spent at the first start and left the URL. So the demo host page
      // reloads too, and frames the embed with a new session.
      onFullReload(front.vite, () => reloadHostPage());
      return front;
    },
    async demoHost(server, platform) {
      const front = await createViteFront({
        config: demoHostConfig,
        server,
        platform,
        // The page's own files (its script and styles); /, /config.json and /session are the host app's.
        serves: (rel, { root }) => viteOwn(rel) || (rel !== "/index.html" && isFileIn(root, rel)),
        cacheDir: "node_modules/.vite-demo-host",
      });
      reloadHostPage = () => front.vite.environments.client.hot.send({ type: "full-reload", path: "*" });
      return front;
    },
  };
}
