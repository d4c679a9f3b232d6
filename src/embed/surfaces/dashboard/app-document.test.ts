// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { appContentSecurityPolicy, buildAppDocument, MAX_STARTING_REPORTS, startingReports } from "./app-document";

const ORIGIN = "https://svc.example";
const hex = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, "0")).join("");
const policyOf = (html: string) =>
  new DOMParser().parseFromString(html, "text/html").querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute("content")!;
const scriptSrcOf = (html: string) =>
  policyOf(html)
    .split("; ")
    .find((d) => d.startsWith("script-src "))!
    .split(" ")
    .slice(1);

describe("buildAppDocument", () => {
  it("puts the no-network policy first, before the runtime, the libraries and the app", async () => {
    const doc = await buildAppDocument(
      { kind: "APP", app: { html: "<p id=app>hi</p>", manifest: { dependencies: { "vega-embed": "7", "left-pad": "1" } } } },
      ORIGIN,
      "pub123",
    );
    const policyAt = doc.html.indexOf('http-equiv="Content-Security-Policy"');
    expect(policyAt).toBeGreaterThan(0);
    expect(policyAt).toBeLessThan(doc.html.indexOf("<script"));
    expect(doc.html.indexOf("<p id=app>")).toBeGreaterThan(doc.html.lastIndexOf("vega-embed.min.js"));
    expect(doc.html).toContain(`<script src="${ORIGIN}/embed/app-runtime.js"></script><script src="${ORIGIN}/embed/app-libs/vega.min.js"></script>`);
    expect(doc.unknownDependencies).toEqual(["left-pad"]);
    // The libraries are asked for together, ahead of the scripts that wait for each in turn.
    expect(doc.html.indexOf(`<link rel="preload" as="script" href="${ORIGIN}/embed/app-libs/vega-embed.min.js">`)).toBeGreaterThan(policyAt);
    expect(doc.html.lastIndexOf('rel="preload"')).toBeLessThan(doc.html.indexOf("<script"));
    const csp = policyOf(doc.html);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    // vega compiles its expressions: eval, and still only the listed URLs.
    expect(scriptSrcOf(doc.html)).toEqual([
      `${ORIGIN}/embed/app-runtime.js`,
      `${ORIGIN}/embed/app-libs/vega.min.js`,
      `${ORIGIN}/embed/app-libs/vega-lite.min.js`,
      `${ORIGIN}/embed/app-libs/vega-embed.min.js`,
      "'unsafe-eval'",
    ]);
  });

  it("lists every script by its exact URL: no nonce, no hash, no folder, no inline script, and eval only for a library that needs it", async () => {
    const doc = await buildAppDocument(
      { kind: "APP", app: { html: "<script>window.a = 1</script><script type=module>window.b = 2</script>" } },
      ORIGIN,
      "pub123",
    );
    const sources = scriptSrcOf(doc.html);
    expect(sources).toEqual([
      `${ORIGIN}/embed/app-runtime.js`,
      `${ORIGIN}/embed/app-code/pub123/${await hex("window.a = 1")}.js`,
      `${ORIGIN}/embed/app-code/pub123/${await hex("window.b = 2")}.js`,
    ]);
    for (const source of sources) expect(source).toMatch(/^https:\/\/svc\.example\/embed\/[^ ']+\.js$/);
    expect(sources.join(" ")).not.toMatch(/nonce|sha256-|unsafe-inline|unsafe-eval|strict-dynamic|'self'/);
    const parsed = new DOMParser().parseFromString(doc.html, "text/html");
    const scripts = [...parsed.querySelectorAll("script")];
    expect(scripts.every((s) => s.getAttribute("src") && !s.textContent)).toBe(true);
    expect(scripts[2]!.getAttribute("type")).toBe("module");
    expect(appContentSecurityPolicy(["https://svc.example/x.js"], false)).toContain("script-src https://svc.example/x.js; ");
  });

  it("serves the entry's own files as scripts, inlines its style sheets, and leaves out a script from elsewhere", async () => {
    const doc = await buildAppDocument(
      {
        kind: "APP",
        app: {
          entry: "index.html",
          files: {
            "index.html":
              '<link rel="stylesheet" href="a.css"><script src="./a.js"></script><script src="https://cdn.example/x.js"></script><script type="text/plain" src="https://cdn.example/y.js">carrier</script>',
            "a.js": "var s = '</script>';",
            "a.css": "p{}",
          },
        },
      },
      ORIGIN,
      "pub123",
    );
    expect(doc.html).toContain("<style>p{}</style>");
    expect(doc.html).toContain(`<script src="${ORIGIN}/embed/app-code/pub123/${await hex("var s = '</script>';")}.js"></script>`);
    expect(doc.html).not.toContain("cdn.example");
    expect(doc.refusedScripts).toEqual(["https://cdn.example/x.js"]);
    // A data block stays a data block, without its URL.
    expect(doc.html).toContain('<script type="text/plain">carrier</script>');
  });

  it("finds the reports the app's code asks for by a literal name or id", async () => {
    const code = `svc.query("funnel_status"); svc.query( 'funnel_category' ); svc.query(12); svc.query(\`tpl\`);
      svc.query("funnel_status"); svc.query(name); svc.query("a" + b); svc.python("py_report"); notsvc.query("x")`;
    expect(startingReports(code)).toEqual(["funnel_status", "funnel_category", 12, "tpl"]);
    const many = Array.from({ length: 20 }, (_, i) => `svc.query("r${i}")`).join(";");
    expect(startingReports(many)).toHaveLength(MAX_STARTING_REPORTS);
    expect((await buildAppDocument({ kind: "APP", app: { html: "<script>svc.query('orders')</script>" } }, ORIGIN, "p")).startingReports).toEqual(["orders"]);
  });

  it("says what is wrong with an app it cannot show", async () => {
    expect((await buildAppDocument({ kind: "APP" }, ORIGIN, "p")).problem).toMatch(/no app/);
    expect((await buildAppDocument({ kind: "APP", app: { entry: "main.html", files: {} } }, ORIGIN, "p")).problem).toMatch(/not among its files/);
  });
});
