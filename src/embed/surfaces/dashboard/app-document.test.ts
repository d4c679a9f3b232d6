// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { appContentSecurityPolicy, appDocumentNonce, buildAppDocument, entryHtml, MAX_STARTING_REPORTS, startingReports } from "./app-document";

const NONCE = "testNonce0123456789abc";

describe("buildAppDocument", () => {
  it("puts the no-network policy first, before the runtime, the libraries and the app", () => {
    const doc = buildAppDocument(
      { kind: "APP", app: { html: "<p id=app>hi</p>", manifest: { dependencies: { "vega-embed": "7", "left-pad": "1" } } } },
      "https://svc.example",
      NONCE,
    );
    const policyAt = doc.html.indexOf('http-equiv="Content-Security-Policy"');
    expect(policyAt).toBeGreaterThan(0);
    expect(policyAt).toBeLessThan(doc.html.indexOf("<script"));
    expect(doc.html.indexOf('<p id="app">')).toBeGreaterThan(doc.html.lastIndexOf("vega-embed.min.js"));
    expect(doc.html).toContain(`<script src="https://svc.example/embed/app-libs/vega.min.js" nonce="${NONCE}">`);
    expect(doc.unknownDependencies).toEqual(["left-pad"]);
    // The libraries are asked for together, ahead of the scripts that wait for each in turn.
    expect(doc.html.indexOf('<link rel="preload" as="script" href="https://svc.example/embed/app-libs/vega-embed.min.js">')).toBeGreaterThan(policyAt);
    expect(doc.html.lastIndexOf('rel="preload"')).toBeLessThan(doc.html.indexOf("<script"));
    const csp = appContentSecurityPolicy("https://svc.example", NONCE);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain(`script-src 'nonce-${NONCE}' 'unsafe-eval' https://svc.example/embed/app-libs/`);
    expect(csp).not.toContain("unsafe-inline' 'unsafe-eval");
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

  it("puts the nonce on every script element and nowhere else", () => {
    const app = [
      "<script>window.a = 1</script>",
      "<svg><script>window.b = 1</script></svg>",
      // Not elements of the app's document: in an attribute, in raw text, in a template, in noscript.
      '<iframe srcdoc="<script>parent.c = 1</script>"></iframe>',
      "<iframe srcdoc='<script>parent.d = 1</script>'></iframe>",
      "<textarea><script>e</script></textarea>",
      "<template><script>f</script></template>",
      "<noscript><script>g</script></noscript>",
      '<script nonce="guessed">h</script>',
    ].join("");
    const { html } = buildAppDocument({ kind: "APP", app: { html: app } }, "https://svc.example", NONCE);
    const parsed = new DOMParser().parseFromString(html, "text/html");
    const live = [...parsed.querySelectorAll("script")].filter((s) => !s.closest("noscript"));
    // The runtime, the two app scripts and the one with a guessed nonce (now the document's).
    expect(live.map((s) => s.getAttribute("nonce"))).toEqual([NONCE, NONCE, NONCE, NONCE]);
    expect(live.map((s) => s.textContent)).toEqual([expect.stringContaining("MessageChannel"), "window.a = 1", "window.b = 1", "h"]);
    // The nonce appears in the policy and on those four elements only.
    expect(html.split(NONCE).length - 1).toBe(5);
    for (const frame of parsed.querySelectorAll("iframe")) expect(frame.getAttribute("srcdoc")).not.toContain(NONCE);
    expect(parsed.querySelector("noscript")!.innerHTML).not.toContain(NONCE);
    // A fresh one per document.
    expect(appDocumentNonce()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(appDocumentNonce()).not.toBe(appDocumentNonce());
  });

  it("removes WebRTC and keeps the nonce from the app before the app's code runs", () => {
    const { html } = buildAppDocument({ kind: "APP", app: { html: "<p>hi</p>" } }, "https://svc.example", NONCE);
    const runtime = html.slice(html.indexOf(">", html.indexOf("<script")) + 1, html.indexOf("</script>"));
    expect(runtime).toContain("/^(webkit)?RTC/.test(name)) delete window[name]");
    expect(runtime).toContain('Object.defineProperty(type.prototype, "nonce", empty)');
    expect(runtime).toContain('"originalPolicy", empty');
    expect(runtime).not.toContain(NONCE);
  });

  it("hands the channel's port to the parent at the platform's exact origin, and posts nothing else to a window", () => {
    const { html } = buildAppDocument({ kind: "APP", app: { html: "<p>hi</p>" } }, "https://svc.example");
    const runtime = html.slice(html.indexOf("<script"), html.indexOf("</script>"));
    expect(runtime).toContain("new MessageChannel()");
    expect(runtime).toContain("window.parent.postMessage({ source: S, type: T.connect }, ORIGIN, [channel.port2]);");
    expect(runtime).toContain('ORIGIN = "https://svc.example"');
    expect(runtime.match(/\.postMessage\(/g)).toHaveLength(2); // the handshake and port.postMessage
    expect(runtime).not.toContain('"*"');
    expect(runtime).not.toContain('addEventListener("message"');
  });

  it("finds the reports the app's code asks for by a literal name or id", () => {
    const code = `svc.query("funnel_status"); svc.query( 'funnel_category' ); svc.query(12); svc.query(\`tpl\`);
      svc.query("funnel_status"); svc.query(name); svc.query("a" + b); svc.python("py_report"); notsvc.query("x")`;
    expect(startingReports(code)).toEqual(["funnel_status", "funnel_category", 12, "tpl"]);
    const many = Array.from({ length: 20 }, (_, i) => `svc.query("r${i}")`).join(";");
    expect(startingReports(many)).toHaveLength(MAX_STARTING_REPORTS);
    expect(buildAppDocument({ kind: "APP", app: { html: "<script>svc.query('orders')</script>" } }, "https://svc.example").startingReports).toEqual(["orders"]);
  });

  it("says what is wrong with an app it cannot show", () => {
    expect(buildAppDocument({ kind: "APP" }, "https://svc.example").problem).toMatch(/no app/);
    expect(buildAppDocument({ kind: "APP", app: { entry: "main.html", files: {} } }, "https://svc.example").problem).toMatch(/not among its files/);
  });
});
