import { createHash } from "node:crypto";

/**
 * The Content-Security-Policy of every embed page (dashboard, dashboard app, chat, creator app:
 * one index.html for all of them). It is a second wall behind the markdown sanitiser and the
 * app frame's own policy: markup that got through still cannot run a script, load a remote
 * image, font or style, talk to another host, or post a form anywhere (docs/embedding.md,
 * "Content-Security-Policy").
 *
 * The documents the embed writes into `<iframe srcdoc>` (HTML reports, dashboard apps) inherit
 * this policy on top of their own, so it allows what they need as well: inline styles, and eval
 * for vega (which compiles chart expressions with `Function`, on the page for interactive
 * charts and in an app frame). Their scripts are files of this origin.
 */
export function embedPagePolicy(opts: { allowedOrigins: readonly string[]; inlineScriptHashes: readonly string[] }): string {
  return [
    "default-src 'self'",
    // The bundle's modules and workers, the app frames' runtime, code and libraries: files of
    // this origin. The one inline script (the session exchange in index.html) by its hash. No
    // 'unsafe-inline': an injected script element, event handler attribute or javascript: URL
    // does not run.
    `script-src 'self' ${[...opts.inlineScriptHashes.map((h) => `'${h}'`), "'unsafe-eval'"].join(" ")}`,
    // The inlined start-up stylesheet, React's and vega's style attributes, the app frames' own
    // <style>. With no remote image, font or connection a style cannot send anything anywhere.
    "style-src 'self' 'unsafe-inline'",
    // Images of this origin and those the embed makes (chart and export PNGs, map tiles drawn
    // from the bundled topojson); a remote image in a markdown widget is not fetched.
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' data: blob:",
    // The chart and Intl workers are module files of the bundle.
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "manifest-src 'self'",
    frameAncestors(opts.allowedOrigins),
    // The embed's own frames are srcdoc documents (HTML reports, dashboard apps), which it
    // allows, and its own pages (the creator app frames a dashboard); none of them may navigate
    // itself to another site's URL (an app leaking data in one).
    "frame-src 'self'",
  ].join("; ");
}

/** `frame-ancestors` from the account's allowed origins: nobody else can frame the embed. */
export function frameAncestors(origins: readonly string[]): string {
  return `frame-ancestors 'self'${origins.map((o) => " " + o).join("")}`;
}

/**
 * `sha256-…` of every inline script the page runs (a `<script>` without `src` whose type is
 * JavaScript): what the browser hashes is the exact text between the tags. Data blocks (type
 * `application/json`, the runtime configuration) do not run and need none. The page is read
 * left to right as the parser would: what looks like a script inside a comment or a `<style>`
 * element (the inlined start-up stylesheet) is not one and gets no hash.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<!--[\s\S]*?-->|<style\b[^>]*>[\s\S]*?<\/style\s*>|<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes, code] = match;
    if (attributes === undefined || code === undefined || /\bsrc\s*=/i.test(attributes)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript" && type !== "application/javascript") continue;
    const hash = "sha256-" + createHash("sha256").update(code, "utf8").digest("base64");
    if (!hashes.includes(hash)) hashes.push(hash);
  }
  return hashes;
}
