import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { EMBED_CONFIG_ELEMENT_ID } from "../../../schema/embed-runtime";
import type { AppDeps } from "../../context";
import type { Router } from "../../http/openapi";
import { getAllowedOrigins } from "../account-settings/service";
import { embedPagePolicy, inlineScriptHashes } from "./csp";
import { devServerCsp } from "./dev-csp";

function escapeJsonForHtml(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

/**
 * The start-up stylesheets of the built index.html written into it: the loading screen paints
 * from the HTML alone, and the boot script (which a pending stylesheet would hold back) does not
 * wait for another request. Files up to 16 kB; a larger or missing one stays a link.
 */
export function inlineStylesheets(html: string, dir: string): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/embed\/(assets\/[^"]+\.css)"[^>]*>/g, (link, file: string) => {
    const full = path.join(dir, file);
    if (!existsSync(full) || statSync(full).size > 16_384) return link;
    // A stylesheet cannot close the element it is written into.
    return `<style>${readFileSync(full, "utf8").replace(/<\/style/gi, "<\\/style")}</style>`;
  });
}

/**
 * Serves the embed app at /embed/*: hashed assets as files, every other path as index.html
 * with the runtime configuration inlined (the allowed host origins the bridge may talk to).
 * Under the dev server (`npm run dev`) the dev server in front answers the modules and the
 * page comes from it, its policy widened by `devServerCsp` alone.
 */
export function registerEmbedAppRoutes(app: Router, deps: AppDeps) {
  const assets = deps.embedAssets;
  // The page and the hashes of its inline scripts for the policy, both read once.
  let indexTemplate: { html: string; scriptHashes: string[] } | null = null;
  const loadIndex = () => {
    if (!assets?.dir) return null;
    if (indexTemplate === null) {
      const html = inlineStylesheets(readFileSync(path.join(assets.dir, "index.html"), "utf8"), assets.dir);
      indexTemplate = { html, scriptHashes: inlineScriptHashes(html) };
    }
    return indexTemplate;
  };

  if (assets?.dir) {
    app.use(
      "/embed/assets/*",
      // Hashed file names: cached for good. (Before serveStatic, which answers without next().)
      async (c, next) => {
        await next();
        if (c.res.status === 200) c.header("Cache-Control", "public, max-age=31536000, immutable");
      },
      // The build writes .br and .gz beside each compressible asset (vite.config.ts).
      serveStatic({ root: assets.dir, rewriteRequestPath: (p) => p.replace(/^\/embed/, ""), precompressed: true }),
    );
    app.get("/embed/favicon.svg", serveStatic({ root: assets.dir, rewriteRequestPath: (p) => p.replace(/^\/embed/, "") }));
  }

  app.get("/embed/*", async (c) => {
    const origins = await getAllowedOrigins(deps.db);
    const url = new URL(c.req.url);
    const devPage = assets?.dev ? await assets.dev.page(url.pathname + url.search) : null;
    const template = devPage ? { html: devPage.html, scriptHashes: inlineScriptHashes(devPage.html) } : loadIndex();
    // The whole policy of an embed page (csp.ts); the dev server's page widens it for Vite's client alone.
    const csp = embedPagePolicy({ allowedOrigins: origins, inlineScriptHashes: template?.scriptHashes ?? [] });
    c.header("Content-Security-Policy", devPage ? devServerCsp(csp, { nonce: devPage.nonce, origin: url.origin }) : csp);
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
    if (!template) {
      return c.json({ code: "not_built", message: "The embed app is not built: run `npm run build`." }, 503);
    }
    const config = { allowedOrigins: origins };
    const html = template.html.replace(
      "</head>",
      `<script id="${EMBED_CONFIG_ELEMENT_ID}" type="application/json">${escapeJsonForHtml(config)}</script></head>`,
    );
    return c.html(html);
  });
}
