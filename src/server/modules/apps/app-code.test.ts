import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_SCRIPT_PROLOGUE } from "../../../schema/app-scripts";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe.each(storageKinds)("app scripts served by the platform (%s)", (storage) => {
  let t: TestPlatform;
  let deploymentId: number;
  const base = () => `/api/v1/deployments/${deploymentId}/workbooks`;

  async function publish(slug: string, app: Record<string, unknown>) {
    const wb = (await (await t.api("PUT", `${base()}/by-slug/${slug}`, { name: slug, meta: { dashboardDraft: { kind: "APP", app } } })).json()) as {
      id: number;
    };
    const res = await t.api("POST", `${base()}/${wb.id}/dashboard/publish`);
    return { wb, res };
  }

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    [deploymentId] = await t.addDeployments("apps");
  });
  afterAll(async () => {
    await t.close();
  });

  it("serves each script of a published app by its code's digest, after the prologue, and nothing else", async () => {
    const inline = "'use strict';\nsvc.loaded();";
    const { res } = await publish("served", {
      entry: "index.html",
      files: {
        "index.html": `<script>${inline}</script><script src="./main.js"></script><script type="application/json">{"a":1}</script>`,
        "main.js": "window.x = 1;",
      },
    });
    expect(res.status).toBe(200);
    const { publicId } = (await res.json()) as { publicId: string };

    const first = await t.app.request(`/embed/app-code/${publicId}/${sha(inline)}.js`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    // The directive stays first, then the prologue, then the code, on its own lines as written.
    expect(await first.text()).toBe(`'use strict';${APP_SCRIPT_PROLOGUE}\nsvc.loaded();`);
    const file = await t.app.request(`/embed/app-code/${publicId}/${sha("window.x = 1;")}.js`);
    expect(await file.text()).toBe(`${APP_SCRIPT_PROLOGUE}window.x = 1;`);

    // A data block is not code; a digest of no script of the app, or of another dashboard, is 404.
    expect((await t.app.request(`/embed/app-code/${publicId}/${sha('{"a":1}')}.js`)).status).toBe(404);
    expect((await t.app.request(`/embed/app-code/${publicId}/${"0".repeat(64)}.js`)).status).toBe(404);
    expect((await t.app.request(`/embed/app-code/${publicId}/${sha(inline).toUpperCase()}.js`)).status).toBe(404);
    const other = await publish("other", { html: "<p>other</p>" });
    const otherId = ((await other.res.json()) as { publicId: string }).publicId;
    expect((await t.app.request(`/embed/app-code/${otherId}/${sha(inline)}.js`)).status).toBe(404);
    expect((await t.app.request(`/embed/app-code/nosuchdash000/${sha(inline)}.js`)).status).toBe(404);
  });

  it("serves the runtime, which hands the port to the origin it came from and removes WebRTC first", async () => {
    const res = await t.app.request("/embed/app-runtime.js");
    expect(res.status).toBe(200);
    const code = await res.text();
    expect(code).toContain("ORIGIN = new URL(document.currentScript.src).origin");
    expect(code.indexOf("delete window[name]")).toBeLessThan(code.indexOf("new MessageChannel()"));
    expect(code).toContain("window.parent.postMessage({ source: S, type: T.connect }, ORIGIN, [channel.port2]);");
    expect(code).not.toContain('"*"');
  });

  it("refuses to publish an app whose HTML loads a script from elsewhere, naming the file and line", async () => {
    const { res } = await publish("outside", { html: '<p>x</p>\n\n<script src="https://cdn.example/x.js"></script>' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string; details: { path: string[]; message: string }[] };
    expect(body.code).toBe("validation_failed");
    expect(body.message).toContain('html, line 3: <script src="https://cdn.example/x.js">');
    expect(body.details).toEqual([{ path: ["meta", "dashboardDraft", "app", "html"], message: expect.stringMatching(/^line 3: /) }]);

    const files = await publish("outside-files", {
      files: { "index.html": '<script src="ok.js"></script>', "other.html": "\n<script type=text/plain src=//evil.example/c.js></script>", "ok.js": "1" },
    });
    expect(files.res.status).toBe(400);
    expect(((await files.res.json()) as { message: string }).message).toContain('file "other.html", line 2: <script src="//evil.example/c.js">');
  });
});
