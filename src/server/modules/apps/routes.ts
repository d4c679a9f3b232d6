import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import path from "node:path";
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBody, Id, SafeText } from "../../../schema/common";
import { requirePrincipal } from "../../http/auth";
import { commonErrors, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { PublicIdParam } from "../embed-access/routes";
import { APP_LIBRARIES, type AppLibraryFile } from "../../../schema/app-libraries";
import { pythonSandbox } from "./python-sandbox";
import { createPythonResultCache, runPythonReport } from "./service";

const gzipAsync = promisify(zlib.gzip);

export const PythonRunInput = z
  .object({
    reportId: Id,
    filters: z.array(SafeText.max(2100)).max(100).optional().meta({ description: "Dashboard filters, each `f_<view>.<dimension>=<JSON>` as in `set-filter`." }),
  })
  .strict()
  .meta({ id: "PythonRunInput" });

export const PythonRunResult = z
  .object({
    stdout: z.string(),
    table: z.array(z.record(z.string(), z.unknown())).optional(),
    html: z.string().optional(),
    image: z.string().optional().meta({ description: "A data: URL (PNG or SVG)." }),
  })
  .meta({ id: "PythonRunResult" });

const pythonRun = createRoute({
  operationId: "runDashboardPythonReport",
  method: "post",
  path: "/api/v1/embed/dashboard/{publicId}/python-run",
  tags: ["Embed"],
  summary: "Run a Python report of the dashboard with dashboard filters applied",
  description:
    "Same access as the dashboard (embed access, workbook access); the report's query runs with the viewer's row-level security and its result is passed to the Python code as `rows`. The code runs in a sandbox without network (an operating-system network namespace, verified at start) or platform files, with a time, a memory and an output limit: a failure, the time limit or the memory limit answer 422 `python_failed` with `details.reason`. Runs share a fixed pool of sandbox processes: when too many wait (all tenants, or one tenant) the answer is 429 `rate_limited` with `Retry-After`; where the installation cannot isolate the network, Python reports are off and the answer is 503 `python_unavailable`.",
  security,
  request: { params: z.object({ publicId: PublicIdParam }), ...jsonBody(PythonRunInput, { required: true }) },
  responses: {
    200: jsonContent(PythonRunResult, "What the code printed and showed."),
    422: jsonContent(
      z.object({ code: z.literal("python_failed"), message: z.string(), details: z.object({ reason: z.string(), stdout: z.string() }) }),
      "The Python code failed or passed a limit.",
    ),
    ...commonErrors,
    ...notFoundError,
    429: jsonContent(ErrorBody, "Too many Python runs are waiting (`rate_limited`); `Retry-After` says when to try again."),
    503: jsonContent(ErrorBody, "Python reports are off on this installation (`python_unavailable`): the message says why."),
  },
});

export function registerPythonRunRoutes(app: Router) {
  const cache = createPythonResultCache();
  app.openapi(pythonRun, async (c) => {
    const principal = requirePrincipal(c);
    const deps = c.get("deps");
    const output = await runPythonReport(
      { db: deps.db, engineFor: (id) => deps.queryEngines.get(id), sandbox: pythonSandbox(), queryTimeoutMs: deps.queryEngines.queryTimeoutMs, cache },
      principal,
      c.req.valid("param").publicId,
      c.req.valid("json"),
      c.req.raw.signal,
    );
    c.header("Cache-Control", "no-store");
    return c.json(output, 200);
  });
}

/**
 * The libraries a dashboard app may name in `manifest.dependencies`, served by the platform
 * itself (from its own node_modules): the app's frame may load scripts from here and nowhere else.
 */
export function registerAppLibraryRoutes(app: Router) {
  const require = createRequire(import.meta.url);
  // The package's folder: up from its main file to the package.json that names it (the
  // packages do not export their build folders).
  const fileOf = (lib: AppLibraryFile) => {
    let dir = path.dirname(require.resolve(lib.packageName));
    while (dir !== path.dirname(dir)) {
      const manifest = path.join(dir, "package.json");
      if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === lib.packageName) return path.join(dir, lib.path);
      dir = path.dirname(dir);
    }
    throw new Error(`${lib.packageName} is not installed`);
  };
  // Each file is read and compressed once. A sandboxed frame's requests are not kept in the
  // browser's HTTP cache (its origin is opaque), so every app load fetches its libraries again:
  // gzip keeps that a third of the size on a real network (brotli would save a few per cent
  // more for eight times the compression time).
  const cache = new Map<string, Promise<{ identity: ArrayBuffer; gzip: ArrayBuffer }>>();
  const own = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  const load = (lib: AppLibraryFile) => {
    let entry = cache.get(lib.file);
    if (!entry) {
      entry = readFile(fileOf(lib)).then(async (identity) => ({
        identity: own(identity),
        gzip: own(await gzipAsync(identity, { level: 9 })),
      }));
      entry.catch(() => cache.delete(lib.file));
      cache.set(lib.file, entry);
    }
    return entry;
  };
  app.get("/embed/app-libs/:file", async (c) => {
    const file = c.req.param("file");
    const lib = Object.values(APP_LIBRARIES)
      .flat()
      .find((l) => l.file === file);
    if (!lib) return c.json({ code: "not_found", message: "No such library" }, 404);
    const forms = await load(lib);
    const accepted = acceptedEncodings(c.req.header("accept-encoding"));
    const encoding = accepted.has("gzip") ? "gzip" : null;
    c.header("Content-Type", "text/javascript; charset=utf-8");
    c.header("Cache-Control", "public, max-age=86400");
    c.header("Vary", "Accept-Encoding");
    c.header("X-Content-Type-Options", "nosniff");
    // Loaded by sandboxed (opaque-origin) frames: a no-cors script load.
    c.header("Cross-Origin-Resource-Policy", "cross-origin");
    if (encoding) c.header("Content-Encoding", encoding);
    return c.body(encoding ? forms[encoding] : forms.identity, 200);
  });
}

/** The codings an Accept-Encoding header allows (`q=0` refuses one). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name);
  }
  return accepted;
}
