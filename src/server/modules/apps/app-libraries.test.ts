import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";
import { acceptedEncodings } from "./routes";

describe("/embed/app-libs", () => {
  let t: TestPlatform;
  const original = readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve("vega-embed")), "vega-embed.min.js"));
  const get = (file: string, acceptEncoding?: string) =>
    t.app.request(`/embed/app-libs/${file}`, { headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } });

  beforeAll(async () => {
    t = await createTestPlatform();
  });
  afterAll(async () => {
    await t.close();
  });

  it("serves the platform's own file, compressed when the browser accepts it", async () => {
    const gzip = await get("vega-embed.min.js", "gzip, deflate, br, zstd");
    expect(gzip.status).toBe(200);
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gzip.headers.get("vary")).toBe("Accept-Encoding");
    expect(gzip.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const body = Buffer.from(await gzip.arrayBuffer());
    expect(body.length).toBeLessThan(original.length / 2);
    expect(zlib.gunzipSync(body).equals(original)).toBe(true);

    const refused = await get("vega-embed.min.js", "br, gzip;q=0");
    expect(refused.headers.get("content-encoding")).toBeNull();

    const plain = await get("vega-embed.min.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(original)).toBe(true);
  });

  it("serves nothing but its list", async () => {
    expect((await get("left-pad.js", "gzip")).status).toBe(404);
    expect((await get("..%2F..%2Fpackage.json")).status).toBe(404);
  });

  it("reads Accept-Encoding with q=0 as a refusal", () => {
    expect([...acceptedEncodings("gzip, br;q=0, *;q=0.1")]).toEqual(["gzip", "*"]);
    expect([...acceptedEncodings(undefined)]).toEqual([]);
  });
});
