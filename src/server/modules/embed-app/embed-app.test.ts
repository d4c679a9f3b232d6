import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { brotliCompressSync, gunzipSync, gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app";
import { setAllowedOrigins } from "../account-settings/service";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";

/** Stands for index.html's inline session-exchange script. */
const SESSION_SCRIPT = "\n      (function () { window.__svcSessionExchange = null; })();\n    ";
const sha256 = (text: string) => "sha256-" + createHash("sha256").update(text, "utf8").digest("base64");

describe("embed app routes", () => {
  let t: TestPlatform;
  let dir: string;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    t = await createTestPlatform();
    dir = mkdtempSync(path.join(tmpdir(), "svc-embed-assets-"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(
      path.join(dir, "index.html"),
      `<!doctype html><html><head><title>x</title><link rel="stylesheet" crossorigin href="/embed/assets/boot-1.css"><!-- <script>notAScript()</script> --><script>${SESSION_SCRIPT}</script></head><body><script type="module" crossorigin src="/embed/assets/boot-1.js"></script></body></html>`,
    );
    writeFileSync(path.join(dir, "assets", "boot-1.css"), ".svc-screen { display: grid } /* </style><script>alert(1)</script> */");
    writeFileSync(path.join(dir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    writeFileSync(path.join(dir, "assets", "app-1.js"), "console.log(1)");
    // What the build writes beside a compressible asset.
    const big = "export const words = " + JSON.stringify("chart ".repeat(2000)) + ";";
    writeFileSync(path.join(dir, "assets", "big-1.js"), big);
    writeFileSync(path.join(dir, "assets", "big-1.js.gz"), gzipSync(big));
    writeFileSync(path.join(dir, "assets", "big-1.js.br"), brotliCompressSync(big));
    app = createApp({ ...t.deps, embedAssets: { dir } });
    await setAllowedOrigins(t.database.db, ["https://host.example.com"]);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the app for any embed path with the allowed origins inlined and framing limited to them", async () => {
    const res = await app.request("/embed/dashboard/abcDEF123456?session=s");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'self' https://host.example.com; frame-src 'self'");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain('<script id="svc-embed-config" type="application/json">{"allowedOrigins":["https://host.example.com"]}</script></head>');
  });

  it("sends the whole policy on every kind of embed page: dashboard, dashboard app, chat, creator app", async () => {
    const expected = [
      "default-src 'self'",
      `script-src 'self' '${sha256(SESSION_SCRIPT)}' 'unsafe-eval'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "media-src 'self' data: blob:",
      "worker-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "manifest-src 'self'",
      "frame-ancestors 'self' https://host.example.com",
      "frame-src 'self'",
    ].join("; ");
    // A dashboard app is a dashboard page too (its frame is written by the embed, srcdoc).
    for (const page of ["/embed/dashboard/abcDEF123456?session=s", "/embed/chat", "/embed/d/3/app", "/embed/d/3/app/workbooks", "/embed/"]) {
      const res = await app.request(page);
      expect(res.status, page).toBe(200);
      expect(res.headers.get("content-security-policy"), page).toBe(expected);
    }
  });

  it("allows the page's inline script by its hash, and no inline script otherwise", async () => {
    const policy = (await app.request("/embed/chat")).headers.get("content-security-policy")!;
    const scriptSrc = policy.split("; ").find((d) => d.startsWith("script-src "))!;
    // The hash the browser computes for the script's exact text; none for the text in a comment or
    // in the inlined stylesheet that looks like a script. The JSON configuration (a data
    // block, never run) and the module script (a file of this origin) need none.
    expect(scriptSrc.match(/'sha256-[^']+'/g)).toEqual([`'${sha256(SESSION_SCRIPT)}'`]);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(scriptSrc).not.toContain("nonce-");
  });

  it("writes the start-up stylesheet into the page, unable to close its element", async () => {
    const html = await (await app.request("/embed/dashboard/abcDEF123456")).text();
    expect(html).not.toContain('rel="stylesheet"');
    expect(html).toContain("<style>.svc-screen { display: grid }");
    expect(html).not.toContain("</style><script>alert(1)");
  });

  it("escapes the inlined configuration so it cannot close the script element", async () => {
    await setAllowedOrigins(t.database.db, ["https://a.example.com</script><script>alert(1)</script>"]);
    const html = await (await app.request("/embed/chat")).text();
    expect(html).not.toContain("</script><script>alert(1)");
    expect(html).toContain("\\u003c/script\\u003e");
    await setAllowedOrigins(t.database.db, ["https://host.example.com"]);
  });

  it("serves hashed assets as immutable files and the favicon as a file", async () => {
    const asset = await app.request("/embed/assets/app-1.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    const icon = await app.request("/embed/favicon.svg");
    expect(icon.headers.get("content-type")).toContain("image/svg+xml");
  });

  it("serves the build's compressed form of an asset to a browser that accepts it, the file itself otherwise", async () => {
    const gz = await app.request("/embed/assets/big-1.js", { headers: { "accept-encoding": "gzip" } });
    expect(gz.status).toBe(200);
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toContain("Accept-Encoding");
    expect(gz.headers.get("content-type")).toContain("javascript");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toContain("export const words");
    const br = await app.request("/embed/assets/big-1.js", { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    const plain = await app.request("/embed/assets/big-1.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toContain("export const words");
  });

  it("answers 503 with a clear message when the app is not built", async () => {
    const res = await t.app.request("/embed/dashboard/abc");
    expect(res.status).toBe(503);
    expect((await res.json()).message).toContain("npm run build");
  });
});
