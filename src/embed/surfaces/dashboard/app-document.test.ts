import { describe, expect, it } from "vitest";
import { appContentSecurityPolicy, buildAppDocument, entryHtml } from "./app-document";

describe("buildAppDocument", () => {
  it("puts the no-network policy first, before the runtime, the libraries and the app", () => {
    const doc = buildAppDocument(
      { kind: "APP", app: { html: "<p id=app>hi</p>", manifest: { dependencies: { "vega-embed": "7", "left-pad": "1" } } } },
      "https://svc.example",
    );
    const policyAt = doc.html.indexOf('http-equiv="Content-Security-Policy"');
    expect(policyAt).toBeGreaterThan(0);
    expect(policyAt).toBeLessThan(doc.html.indexOf("<script"));
    expect(doc.html.indexOf("<p id=app>")).toBeGreaterThan(doc.html.lastIndexOf("vega-embed.min.js"));
    expect(doc.html).toContain('src="https://svc.example/embed/app-libs/vega.min.js"');
    expect(doc.unknownDependencies).toEqual(["left-pad"]);
    const csp = appContentSecurityPolicy("https://svc.example");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("script-src 'unsafe-inline' 'unsafe-eval' https://svc.example/embed/app-libs/");
  });

  it("inlines the entry's own scripts and styles, escaping a closing tag inside them", () => {
    const { html } = entryHtml({
      entry: "index.html",
      files: {
        "index.html": '<link rel="stylesheet" href="a.css"><script src="./a.js"></script><script src="https://cdn.example/x.js"></script>',
        "a.js": "var s = '</script>';",
        "a.css": "p{}",
      },
    });
    expect(html).toContain("<style>p{}</style>");
    expect(html).toContain("<script>var s = '<\\/script>';</script>");
    expect(html).toContain('src="https://cdn.example/x.js"');
  });

  it("says what is wrong with an app it cannot show", () => {
    expect(buildAppDocument({ kind: "APP" }, "https://svc.example").problem).toMatch(/no app/);
    expect(buildAppDocument({ kind: "APP", app: { entry: "main.html", files: {} } }, "https://svc.example").problem).toMatch(/not among its files/);
  });
});
