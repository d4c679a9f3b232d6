/**
 * The document a dashboard app runs in, written by the embed from the published config it holds:
 * a Content-Security-Policy `<meta>` first (before anything of the app's HTML), then the
 * platform's runtime, the libraries named in `manifest.dependencies`, and the app's HTML.
 *
 * No script in it is inline: the runtime is `/embed/app-runtime.js`, every script of the app (an
 * inline one or one of its files) is `/embed/app-code/<publicId>/<sha256>.js` (src/schema/app-scripts.ts),
 * and the libraries are `/embed/app-libs/<file>`. The policy's `script-src` lists exactly those
 * URLs and nothing else — no nonce, no hash, no `'unsafe-inline'` — so the browser checks every
 * script the document or its code asks for, a dynamic `import()` from any script, timer or
 * `Function` included, against that list. `<script src>` of any other URL is left out of the
 * document (and refused at publish). `'unsafe-eval'` is there only for an app whose libraries
 * need it (vega compiles its expressions with `Function`); code made that way can import nothing
 * either.
 *
 * It goes into `<iframe sandbox="allow-scripts" srcdoc>`: an opaque origin (no cookies, no
 * storage, no access to the embed's DOM or token), no top navigation, no popups, no forms.
 */
import { APP_LIBRARY_PATH, resolveAppDependencies } from "../../../schema/app-libraries";
import { APP_RUNTIME_PATH, appScriptUrl, planAppScripts } from "../../../schema/app-scripts";
import type { DashboardConfig } from "../../../schema/dashboard";

export interface AppDocument {
  html: string;
  /** Dependencies the platform does not serve (left out, reported as an error). */
  unknownDependencies: string[];
  /** `<script src>` URLs that named no file of the app (left out, reported as an error). */
  refusedScripts: string[];
  /** Why there is no app to show, or null. */
  problem: string | null;
  /**
   * The reports the app's code names in a literal `svc.query("name")` / `svc.query(id)` call
   * (at most MAX_STARTING_REPORTS): the surface runs them while the frame is still loading.
   */
  startingReports: (string | number)[];
}

/** At most this many reports are run ahead of the app's asking. */
export const MAX_STARTING_REPORTS = 8;

/** The report names and ids the app's code passes to `svc.query` as literals, in order, each once. */
export function startingReports(code: string): (string | number)[] {
  const found: (string | number)[] = [];
  for (const match of code.matchAll(/\bsvc\.query\(\s*(?:"([^"\\\n]{1,255})"|'([^'\\\n]{1,255})'|`([^`\\$\n]{1,255})`|(\d{1,15}))\s*\)/g)) {
    const ref = match[4] !== undefined ? Number(match[4]) : (match[1] ?? match[2] ?? match[3])!;
    if (!found.includes(ref)) found.push(ref);
    if (found.length >= MAX_STARTING_REPORTS) break;
  }
  return found;
}

/** The libraries that compile code at run time (vega's expressions): only with them does the policy allow eval. */
const EVAL_LIBRARIES = new Set(["vega.min.js", "vega-lite.min.js", "vega-embed.min.js"]);

/**
 * The app document's policy. `scripts` are the exact URLs its scripts may come from (the runtime,
 * the app's code, its libraries): no host, folder, nonce, hash or `'unsafe-inline'`, so a script
 * of any other URL — an element, a module, a dynamic `import()` — is never fetched, and an inline
 * script, an event handler attribute or a `javascript:` URL never runs, here or in a frame the
 * app makes (which inherits this policy).
 */
export function appContentSecurityPolicy(scripts: readonly string[], allowEval: boolean): string {
  return [
    "default-src 'none'",
    `script-src ${[...scripts, ...(allowEval ? ["'unsafe-eval'"] : [])].join(" ")}`,
    "style-src 'unsafe-inline'",
    "img-src data: blob:",
    "font-src data:",
    "media-src data: blob:",
    "connect-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "manifest-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const BASE_STYLE = `:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--svc-text:#1f2937;--svc-muted:#6b7280;--svc-surface:#ffffff;--svc-border:#e5e7eb;--svc-accent:#2563eb}
:root[data-scheme=dark]{color-scheme:dark;--svc-text:#e5e7eb;--svc-muted:#9ca3af;--svc-surface:#111827;--svc-border:#374151;--svc-accent:#60a5fa}
html,body{margin:0;background:transparent;color:var(--svc-text)}`;

export async function buildAppDocument(config: DashboardConfig, platformOrigin: string, publicId: string): Promise<AppDocument> {
  const app = config.app ?? null;
  const none = { html: "", unknownDependencies: [], refusedScripts: [], startingReports: [] };
  if (!app) return { ...none, problem: "The dashboard is of kind APP but has no app" };
  const plan = planAppScripts(app);
  if (plan.problem) return { ...none, problem: plan.problem };
  const urls = await Promise.all(plan.scripts.map(async (code) => appScriptUrl(platformOrigin, publicId, await sha256Hex(code))));
  const { files, unknown } = resolveAppDependencies(app.manifest?.dependencies ?? null);
  const libraryUrls = files.map((f) => platformOrigin + APP_LIBRARY_PATH + f);
  const runtimeUrl = platformOrigin + APP_RUNTIME_PATH;
  const policy = appContentSecurityPolicy(
    [runtimeUrl, ...libraryUrls, ...new Set(urls)],
    files.some((f) => EVAL_LIBRARIES.has(f)),
  );
  // Each library script blocks the parser until it has run, and a document with a policy in a
  // <meta> gets no look-ahead fetching: preload links ask for all of them at once.
  const preloads = libraryUrls.map((url) => `<link rel="preload" as="script" href="${escapeAttribute(url)}">`).join("");
  const libraries = libraryUrls.map((url) => `<script src="${escapeAttribute(url)}"></script>`).join("");
  const head =
    `<!doctype html><html><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">` +
    `<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `${preloads}<style>${BASE_STYLE}</style><script src="${escapeAttribute(runtimeUrl)}"></script>${libraries}</head><body>`;
  return {
    html: head + plan.render((i) => urls[i]!) + "</body></html>",
    unknownDependencies: unknown,
    refusedScripts: plan.refused,
    problem: null,
    startingReports: startingReports(plan.scripts.join("\n")),
  };
}
