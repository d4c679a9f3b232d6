/**
 * The scripts of a dashboard app's document, served by the platform so that the document's
 * policy can list each by its exact URL (src/schema/app-scripts.ts): the runtime at
 * `/embed/app-runtime.js`, and each script of a published app at
 * `/embed/app-code/<publicId>/<sha256>.js`, the SHA-256 of its code.
 *
 * No token comes with these requests (the app's frame has an opaque origin and no credentials):
 * the digest is the key — only who already holds the code (a viewer of the dashboard, whose embed
 * read the published config) can name it — and only code of a published version of that
 * dashboard is served. Each starts with the prologue that removes WebRTC from the window it runs in.
 */
import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { appRuntimeScript } from "../../../protocol";
import { APP_CODE_PATH, APP_RUNTIME_PATH, planAppScripts, servedAppScript } from "../../../schema/app-scripts";
import type { DashboardConfig } from "../../../schema/dashboard";
import type { Db } from "../../db/connection";
import { dashboards, dashboardVersions } from "../../db/schema";
import type { Router } from "../../http/openapi";

/** Versions of one dashboard searched for a script, newest first (a viewer may hold an older one). */
const VERSIONS_SEARCHED = 20;
/** Scripts kept in memory, by digest. */
const CACHE_ENTRIES = 500;

function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The app's script of that digest in a published version of the dashboard, or null. */
export async function findAppScript(db: Db, publicId: string, digest: string): Promise<string | null> {
  const [dash] = await db.select({ id: dashboards.id, status: dashboards.status }).from(dashboards).where(eq(dashboards.publicId, publicId));
  if (!dash || dash.status === "archived") return null;
  const versions = await db
    .select({ config: dashboardVersions.config })
    .from(dashboardVersions)
    .where(and(eq(dashboardVersions.dashboardId, dash.id)))
    .orderBy(desc(dashboardVersions.versionNumber))
    .limit(VERSIONS_SEARCHED);
  for (const { config } of versions) {
    const app = (config as DashboardConfig).app;
    if ((config as DashboardConfig).kind !== "APP" || !app) continue;
    const found = planAppScripts(app).scripts.find((code) => sha256Hex(code) === digest);
    if (found !== undefined) return found;
  }
  return null;
}

const SCRIPT_HEADERS = {
  "Content-Type": "text/javascript; charset=utf-8",
  "X-Content-Type-Options": "nosniff",
  // Loaded by sandboxed (opaque-origin) frames: a no-cors classic script, or a module (CORS).
  "Cross-Origin-Resource-Policy": "cross-origin",
  "Access-Control-Allow-Origin": "*",
};

export function registerAppCodeRoutes(app: Router) {
  const runtime = appRuntimeScript();
  app.get(APP_RUNTIME_PATH, (c) => c.body(runtime, 200, { ...SCRIPT_HEADERS, "Cache-Control": "public, max-age=300" }));

  const cache = new Map<string, string>();
  app.get(`${APP_CODE_PATH}:publicId/:file`, async (c) => {
    const publicId = c.req.param("publicId");
    const digest = /^([0-9a-f]{64})\.js$/.exec(c.req.param("file"))?.[1];
    const notFound = () => c.json({ code: "not_found", message: "No such app script" }, 404);
    if (!digest || !/^[0-9A-Za-z]{1,64}$/.test(publicId)) return notFound();
    const key = `${publicId}/${digest}`;
    let code = cache.get(key);
    if (code === undefined) {
      const found = await findAppScript(c.get("deps").db, publicId, digest);
      if (found === null) return notFound();
      code = servedAppScript(found);
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(key, code);
    }
    // The URL names the code's digest: it never changes.
    return c.body(code, 200, { ...SCRIPT_HEADERS, "Cache-Control": "public, max-age=31536000, immutable" });
  });
}
