import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../app";
import { setAllowedOrigins } from "../account-settings/service";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { devServerCsp } from "./dev-csp";

const page = { nonce: "n0nce", origin: "http://localhost:8080" };

describe("devServerCsp", () => {
  it("adds nothing where the policy restricts nothing", () => {
    expect(devServerCsp("frame-ancestors 'self' https://host.example.com; frame-src 'self'", page)).toBe(
      "frame-ancestors 'self' https://host.example.com; frame-src 'self'",
    );
  });

  it("allows the dev server's inline scripts and styles by the page's nonce and its WebSocket on the page's origin", () => {
    expect(devServerCsp("frame-ancestors 'self'; script-src 'self' 'sha256-abc='; style-src 'self'; connect-src 'self'; img-src 'self' data:", page)).toBe(
      "frame-ancestors 'self'; script-src 'self' 'sha256-abc=' 'nonce-n0nce'; style-src 'self' 'nonce-n0nce'; connect-src 'self' ws://localhost:8080; img-src 'self' data:",
    );
  });

  it("writes out what default-src governs, with the allowance added, and drops 'none' beside it", () => {
    expect(devServerCsp("default-src 'none'; img-src 'self'", page)).toBe(
      "default-src 'none'; img-src 'self'; script-src 'nonce-n0nce'; style-src 'nonce-n0nce'; connect-src ws://localhost:8080",
    );
  });

  it("leaves a directive that already allows every inline style as it is (a nonce would switch 'unsafe-inline' off)", () => {
    expect(devServerCsp("style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline' 'nonce-x'", page)).toBe(
      "style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline' 'nonce-x' 'nonce-n0nce'",
    );
  });

  it("uses wss:// on an https origin", () => {
    expect(devServerCsp("connect-src 'self'", { nonce: "n", origin: "https://svc.example.com" })).toBe("connect-src 'self' wss://svc.example.com");
  });
});

describe("embed page from the dev server", () => {
  let t: TestPlatform;
  let app: ReturnType<typeof createApp>;
  const asked: string[] = [];
  beforeAll(async () => {
    t = await createTestPlatform();
    // What the dev server answers (scripts/dev-vite.ts): the page from its source, its scripts carrying the nonce.
    const dev = {
      async page(url: string) {
        asked.push(url);
        return {
          html: '<!doctype html><html><head><script type="module" nonce="abc">import "/embed/@react-refresh"</script></head><body></body></html>',
          nonce: "abc",
        };
      },
    };
    app = createApp({ ...t.deps, embedAssets: { dev } });
    await setAllowedOrigins(t.database.db, ["https://host.example.com"]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("serves the dev server's page for the asked URL with the configuration inlined and the same framing rules", async () => {
    const res = await app.request("http://localhost:8080/embed/dashboard/abcDEF123456?session=s");
    expect(res.status).toBe(200);
    expect(asked).toEqual(["/embed/dashboard/abcDEF123456?session=s"]);
    // The production policy of the page, widened by the dev server's nonce and WebSocket alone.
    const policy = res.headers.get("content-security-policy")!.split("; ");
    expect(policy).toContain("frame-ancestors 'self' https://host.example.com");
    expect(policy).toContain("connect-src 'self' ws://localhost:8080");
    expect(policy.find((d) => d.startsWith("script-src "))).toMatch(/^script-src 'self' .*'nonce-abc'$/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain('import "/embed/@react-refresh"');
    expect(html).toContain('<script id="svc-embed-config" type="application/json">{"allowedOrigins":["https://host.example.com"]}</script></head>');
  });

  it("serves no built asset in dev mode: the dev server in front answers those", async () => {
    const res = await app.request("/embed/assets/app-1.js");
    expect(res.headers.get("content-type")).toContain("text/html");
  });
});
