/**
 * The scripts of a dashboard app, as the platform serves them: every script of the app — an
 * inline `<script>` of its entry HTML or a `<script src>` naming one of its files — becomes a
 * `<script src>` of the platform's own URL for that code, `/embed/app-code/<publicId>/<sha256>.js`.
 * The app's document then needs no inline script, no nonce and no hash: its policy lists the exact
 * URLs of its scripts, and the browser checks every script URL against that list, a dynamic
 * `import()` included. The embed (which writes the document) and the server (which serves the
 * code) read the app with this one function, so both see the same scripts.
 *
 * Every served script starts with `APP_SCRIPT_PROLOGUE` (WebRTC removed from its window): the app
 * can load its own scripts in a nested frame of its own — a fresh window — but not run anything
 * there before that.
 *
 * The reading is lexical (no HTML parser on the server); where it differs from the browser's, the
 * policy still decides: an inline script it misses runs nowhere, and a `<script src>` of any URL
 * but the listed ones loads nowhere.
 */
import type { DashboardConfig } from "./dashboard";

type AppConfig = NonNullable<DashboardConfig["app"]>;

/** The app's scripts are served at `${APP_CODE_PATH}<publicId>/<sha256 hex>.js`. */
export const APP_CODE_PATH = "/embed/app-code/";
/** The runtime (`window.svc`) is served here: the first script of every app document. */
export const APP_RUNTIME_PATH = "/embed/app-runtime.js";

/**
 * Run first in every window an app script runs in: no WebRTC (which no policy governs). On one
 * line, so the app's own line numbers stay as written.
 */
export const APP_SCRIPT_PROLOGUE = "Object.getOwnPropertyNames(globalThis).forEach(function (n) { if (/^(webkit)?RTC/.test(n)) delete globalThis[n]; });";

/** The type attributes that make a `<script>` run as a classic script or a module (HTML, "prepare the script element"). */
const JS_TYPES = new Set([
  "",
  "module",
  "text/javascript",
  "application/javascript",
  "application/ecmascript",
  "application/x-ecmascript",
  "application/x-javascript",
  "text/ecmascript",
  "text/javascript1.0",
  "text/javascript1.1",
  "text/javascript1.2",
  "text/javascript1.3",
  "text/javascript1.4",
  "text/javascript1.5",
  "text/jscript",
  "text/livescript",
  "text/x-ecmascript",
  "text/x-javascript",
]);

interface Attribute {
  name: string;
  value: string | null;
}

function parseAttributes(text: string): Attribute[] {
  const attributes: Attribute[] = [];
  for (const m of text.matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    attributes.push({ name: m[1]!.toLowerCase(), value: m[2] ?? m[3] ?? m[4] ?? null });
  }
  return attributes;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function writeAttributes(attributes: Attribute[]): string {
  return attributes.map((a) => (a.value === null ? ` ${a.name}` : ` ${a.name}="${escapeAttribute(a.value)}"`)).join("");
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** A script element whose code runs (a JavaScript type, or a module). */
function isScriptType(attributes: Attribute[]): boolean {
  const type = attributes.find((a) => a.name === "type");
  if (!type || type.value === null) {
    const language = attributes.find((a) => a.name === "language")?.value;
    return !language || /^(javascript|ecmascript|jscript|livescript)[\d.]*$/i.test(language.trim());
  }
  return JS_TYPES.has(type.value.trim().toLowerCase());
}

/** Attributes a served script keeps: not its own URL, and nothing that names hashes, nonces or credentials. */
const DROPPED = new Set(["src", "nonce", "integrity", "crossorigin", "referrerpolicy", "fetchpriority", "blocking"]);

/** A `<script src>` (or stylesheet) naming one of the app's files. */
function fileName(files: Readonly<Record<string, string>>, ref: string | null): string | null {
  if (!ref) return null;
  const name = decodeEntities(ref.trim()).replace(/^\.\//, "");
  return Object.prototype.hasOwnProperty.call(files, name) ? name : null;
}

/** A `src` that names no file of the app: refused at publish, left out when the document is written. */
export interface RefusedScriptSource {
  /** `html` for `app.html`, else the file's name. */
  file: string;
  /** 1-based. */
  line: number;
  src: string;
}

const SCRIPT_ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Every `<script src>` in the app's HTML (`app.html` and each `.html`/`.htm` file) that does not
 * name one of the app's files: what publishing refuses.
 */
export function refusedScriptSources(app: AppConfig): RefusedScriptSource[] {
  const files = app.files ?? {};
  const sources: { file: string; text: string }[] = [];
  if (typeof app.html === "string") sources.push({ file: "html", text: app.html });
  for (const [name, text] of Object.entries(files)) if (/\.html?$/i.test(name) && typeof text === "string") sources.push({ file: name, text });
  const refused: RefusedScriptSource[] = [];
  for (const { file, text } of sources) {
    for (const m of text.matchAll(SCRIPT_ELEMENT)) {
      const src = parseAttributes(m[1]!).find((a) => a.name === "src");
      if (!src) continue;
      if (src.value !== null && fileName(files, src.value) !== null && isScriptType(parseAttributes(m[1]!))) continue;
      refused.push({ file, line: lineAt(text, m.index), src: (src.value ?? "").slice(0, 200) });
    }
  }
  return refused;
}

export interface AppScriptPlan {
  /** Why there is no app to show, or null. */
  problem: string | null;
  /** The code of each of the app's scripts, in document order (each once). */
  scripts: string[];
  /** `src`s that named no file of the app (left out). */
  refused: string[];
  /** The app's HTML with each script written as `<script src="urlOf(i)">` (i into `scripts`). */
  render(urlOf: (index: number) => string): string;
}

function entryOf(app: AppConfig): { html: string | null; problem: string | null } {
  if (typeof app.html === "string" && app.html.trim()) return { html: app.html, problem: null };
  const files = app.files ?? {};
  const entry = app.entry ?? (Object.prototype.hasOwnProperty.call(files, "index.html") ? "index.html" : null);
  if (!entry) return { html: null, problem: "The app has neither html nor an entry file" };
  if (!Object.prototype.hasOwnProperty.call(files, entry))
    return { html: null, problem: `The app's entry file "${entry.slice(0, 255)}" is not among its files` };
  return { html: files[entry]!, problem: null };
}

/** The app's own style sheets (`<link rel=stylesheet href>` naming one of its files) inlined. */
function inlineStyleSheets(html: string, files: Readonly<Record<string, string>>): string {
  return html.replace(/<link\b[^>]*>/gi, (tag) => {
    if (!/\brel\s*=\s*["']?stylesheet/i.test(tag)) return tag;
    const name = fileName(files, /\bhref\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1] ?? null);
    // `</style` inside the sheet would end the element early.
    return name === null ? tag : `<style>${files[name]!.replace(/<\/(style)/gi, "<\\/$1")}</style>`;
  });
}

/** The app's scripts, and its HTML with each written as a `<script src>` of the platform's URL for it. */
export function planAppScripts(app: AppConfig): AppScriptPlan {
  const { html: entry, problem } = entryOf(app);
  if (entry === null) return { problem, scripts: [], refused: [], render: () => "" };
  const files = app.files ?? {};
  const html = inlineStyleSheets(entry, files);
  const scripts: string[] = [];
  const refused: string[] = [];
  // Each element once: what it becomes, given the scripts' URLs.
  const parts: (string | ((urlOf: (i: number) => string) => string))[] = [];
  let at = 0;
  for (const m of html.matchAll(SCRIPT_ELEMENT)) {
    parts.push(html.slice(at, m.index));
    at = m.index + m[0].length;
    const attributes = parseAttributes(m[1]!);
    const src = attributes.find((a) => a.name === "src");
    const kept = attributes.filter((a) => !DROPPED.has(a.name));
    if (!isScriptType(attributes)) {
      // A data block (JSON, a template, text/plain): kept as text, never with a URL.
      parts.push(`<script${writeAttributes(kept)}>${m[2]}</script>`);
      continue;
    }
    let code: string;
    if (src) {
      const name = fileName(files, src.value);
      if (name === null) {
        refused.push((src.value ?? "").slice(0, 200));
        continue;
      }
      code = files[name]!;
    } else {
      code = m[2]!;
      if (!code.trim()) continue;
    }
    let index = scripts.indexOf(code);
    if (index < 0) index = scripts.push(code) - 1;
    parts.push((urlOf) => `<script${writeAttributes([{ name: "src", value: urlOf(index) }, ...kept])}></script>`);
  }
  parts.push(html.slice(at));
  return {
    problem: null,
    scripts,
    refused,
    render: (urlOf) => parts.map((p) => (typeof p === "string" ? p : p(urlOf))).join(""),
  };
}

/** The code as served: the prologue, then the app's code (after a leading "use strict" directive, which must stay first). */
export function servedAppScript(code: string): string {
  const directive = /^(\s*(?:\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*(["'])use strict\2\s*;?)/.exec(code);
  if (directive) return directive[1] + APP_SCRIPT_PROLOGUE + code.slice(directive[1]!.length);
  return APP_SCRIPT_PROLOGUE + code;
}

/** The URL of one of the app's scripts. */
export function appScriptUrl(platformOrigin: string, publicId: string, sha256Hex: string): string {
  return `${platformOrigin}${APP_CODE_PATH}${encodeURIComponent(publicId)}/${sha256Hex}.js`;
}
