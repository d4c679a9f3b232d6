import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { z } from "zod";
import type { Logger } from "../logger";
import { behindFront, type DevFront } from "../dev-front";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
export const DEMO_TENANTS = [
  { name: "acme-corp", displayName: "Acme Corp", users: ["ada@acme.example", "linus@acme.example"] },
  { name: "globex-inc", displayName: "Globex Inc", users: ["hank@globex.example"] },
] as const;

const SessionRequest = z.object({
  tenant: z.enum(["acme-corp", "globex-inc"]),
  externalId: z.string().max(200).optional(),
  locale: z.string().max(35).optional(),
  /** The "creator" tab: a session that may open the creator-mode app. */
  creatorMode: z.boolean().optional(),
});

/**
 * The demo host: a stand-in for a customer's web app on its own origin. Its backend holds the
 * admin key (never the browser) and mints a signed session for the chosen tenant; the page
 * embeds the dashboard and shows every event and a control for every action.
 */
export function createDemoHostApp(opts: {
  platformUrl: string;
  adminToken: string;
  deploymentId: number;
  dashboardPublicId: string;
  /** The demo app dashboard (kind APP), shown when the page is opened with `?dashboard=app`. */
  appDashboardPublicId?: string | null;
  logger: Logger;
  fetch?: typeof fetch;
  /** Development (`npm run dev`): the page from its source through the dev server in front, instead of dist/demo-host. */
  devPage?: DevFront["page"];
}) {
  const doFetch = opts.fetch ?? fetch;
  const app = new Hono();
  const pageDir = path.join(repoRoot, "dist", "demo-host");

  // The report of the "Three frames" view, asked once with the backend's key.
  let reportPublicId: Promise<string | null> | null = null;
  const demoReport = async (): Promise<string | null> => {
    const admin = { authorization: `Bearer ${opts.adminToken}` };
    const dash = await doFetch(`${opts.platformUrl}/api/v1/embed/dashboard/${opts.dashboardPublicId}`, { headers: admin });
    if (!dash.ok) return null;
    const { dashboard } = (await dash.json()) as {
      dashboard: {
        config: { widgets?: { type: string; config?: { reportId?: unknown } | null }[] };
        reportSnapshots: { reportId: number; kind?: string | null }[];
      };
    };
    // A drawn chart shows best beside the dashboard; any report otherwise.
    const charts = new Set(dashboard.reportSnapshots.filter((r) => r.kind === "vega").map((r) => r.reportId));
    const ids = (dashboard.config.widgets ?? []).flatMap((w) => (w.type === "CHART" && typeof w.config?.reportId === "number" ? [w.config.reportId] : []));
    const reportId = ids.find((id) => charts.has(id)) ?? ids[0];
    if (typeof reportId !== "number") return null;
    const report = await doFetch(`${opts.platformUrl}/api/v1/deployments/${opts.deploymentId}/reports/${reportId}`, { headers: admin });
    return report.ok ? ((await report.json()) as { publicId: string }).publicId : null;
  };

  app.get("/config.json", async (c) => {
    reportPublicId ??= demoReport().catch(() => null);
    const report = await reportPublicId;
    // A failed look-up is asked again next time.
    if (report === null) reportPublicId = null;
    return c.json({
      platformOrigin: new URL(opts.platformUrl).origin,
      dashboardPublicId: opts.dashboardPublicId,
      appDashboardPublicId: opts.appDashboardPublicId ?? null,
      reportPublicId: report,
      deploymentId: opts.deploymentId,
      tenants: DEMO_TENANTS,
    });
  });

  app.post("/session", async (c) => {
    const parsed = SessionRequest.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ code: "validation_failed", message: "tenant must be acme-corp or globex-inc" }, 400);
    const { tenant, externalId, locale, creatorMode } = parsed.data;
    const t = DEMO_TENANTS.find((x) => x.name === tenant)!;
    const res = await doFetch(`${opts.platformUrl}/api/v1/embed/generate-session`, {
      method: "POST",
      headers: { authorization: `Bearer ${opts.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        deploymentId: opts.deploymentId,
        externalId: externalId ?? t.users[0],
        email: externalId ?? t.users[0],
        embedTenantName: t.name,
        embedTenantProfile: { displayName: t.displayName },
        userProfile: { displayName: (externalId ?? t.users[0]).split("@")[0] },
        settings: { showDashboardChat: false, ...(locale ? { locale } : {}) },
        ...(creatorMode ? { creatorMode: true } : {}),
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { sessionId?: string; message?: string };
    if (!res.ok || !body.sessionId) {
      opts.logger.warn("demo host: session generation failed", { status: res.status });
      return c.json({ code: "session_failed", message: body.message ?? `platform answered ${res.status}` }, 502);
    }
    return c.json({ sessionId: body.sessionId });
  });

  const devPage = opts.devPage;
  if (devPage) {
    app.get("/", async (c) => {
      const url = new URL(c.req.url);
      return c.html((await devPage(url.pathname + url.search)).html);
    });
    return app;
  }
  app.use("/*", serveStatic({ root: pageDir }));
  app.get("/", (c) => {
    const index = path.join(pageDir, "index.html");
    if (!existsSync(index)) return c.text("The demo host page is not built: run `npm run build`.", 503);
    return c.html(readFileSync(index, "utf8"));
  });
  return app;
}

export async function startDemoHost(opts: {
  port: number;
  platformUrl: string;
  adminToken: string;
  deploymentId: number;
  dashboardPublicId: string;
  appDashboardPublicId?: string | null;
  logger: Logger;
  /** Development (`npm run dev`): a dev server in front, serving the page from its source with hot reload. */
  dev?: (server: Server) => Promise<DevFront>;
}): Promise<{ url: string; stop(): Promise<void> }> {
  const server = createServer();
  const front = opts.dev ? await opts.dev(server) : null;
  const app = createDemoHostApp({ ...opts, devPage: front ? (url) => front.page(url) : undefined });
  server.on("request", behindFront(front, getRequestListener(app.fetch)));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      // The dev server's WebSocket clients would keep the server open.
      await front?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections?.();
      });
    },
  };
}
