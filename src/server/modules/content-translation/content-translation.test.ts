import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../cli/main";
import { createTestPlatform, type TestPlatform } from "../../testing/test-platform";

const BASE = "http://svc.test";
const cube = `cubes:\n  - name: orders\n    sql_table: orders\n    dimensions:\n      - { name: status, sql: status, type: string }\n    measures:\n      - { name: count, type: count }\n`;
const goodGerman = `locale: de-DE\ntexts:\n  Orders: Bestellungen\nvalues:\n  orders.status:\n    completed: abgeschlossen\n`;
// Line 4 holds a number where a text belongs, line 5 an unknown key: the file is refused whole.
const badGerman = `locale: de-DE\ntexts:\n  Orders: Bestellungen\n  Revenue: 42\ncolours: {}\n`;

describe("content dictionaries", () => {
  let t: TestPlatform;
  let dir: string;
  let deploymentId: number;
  let developer: { id: number; token: string };
  let viewer: { id: number; token: string };
  const api = (p: string) => `/api/v1/deployments/${deploymentId}/translations${p}`;

  async function svc(args: string[]) {
    let stdout = "";
    let stderr = "";
    const code = await runCli(args, {
      stdout: (s) => void (stdout += s),
      stderr: (s) => void (stderr += s),
      env: { XDG_CONFIG_HOME: path.join(dir, "config"), HOME: dir, SVC_BASE_URL: BASE, SVC_API_KEY: developer.token },
      fetch: async (request: Request) => t.app.fetch(request),
    });
    return { code, stdout, stderr };
  }

  beforeAll(async () => {
    t = await createTestPlatform();
    dir = await mkdtemp(path.join(os.tmpdir(), "svc-translations-"));
    [deploymentId] = await t.addDeployments("translated");
    developer = await t.addUser("dev@translations.test", "developer");
    viewer = await t.addUser("viewer@translations.test", "viewer");
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a malformed dictionary pushed with the model as a whole, naming the file, line and reason", async () => {
    const model = path.join(dir, "model");
    await mkdir(path.join(model, "translations"), { recursive: true });
    await writeFile(path.join(model, "orders.yml"), cube);
    await writeFile(path.join(model, "translations", "de-DE.yml"), badGerman);
    const refused = await svc(["model", "push", "--deployment", String(deploymentId), "--branch", "main", "--dir", model]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("translations/de-DE.yml:4: texts.Revenue:");
    expect(refused.stderr).toMatch(/translations\/de-DE\.yml:5: .*colours/);
    // Nothing of the push landed: neither the dictionary nor the cube beside it.
    expect(await (await t.api("GET", api(""), undefined, developer.token)).json()).toEqual({ locales: [] });
    const files = await t.api("GET", `/build/api/v1/deployments/${deploymentId}/data-model/files?branch=main`, undefined, developer.token);
    expect(((await files.json()) as { files: unknown[] }).files).toEqual([]);

    await writeFile(path.join(model, "translations", "de-DE.yml"), goodGerman);
    const pushed = await svc(["model", "push", "--deployment", String(deploymentId), "--branch", "main", "--dir", model]);
    expect(pushed.code).toBe(0);
    const read = await t.api("GET", api("/de-DE"), undefined, developer.token);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({
      locale: "de-DE",
      path: "translations/de-DE.yml",
      dictionary: { locale: "de-DE", texts: { Orders: "Bestellungen" }, values: { "orders.status": { completed: "abgeschlossen" } } },
    });
  });

  it("replaces a locale's dictionary through the API as one commit on main, and keeps HTML as text", async () => {
    const dictionary = { texts: { Orders: "Pedidos", Pending: "<b>Pendiente</b>" }, members: { "orders.count": "Número de pedidos" } };
    const put = await t.api("PUT", api("/es-ES"), dictionary, developer.token);
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ locale: "es-ES", path: "translations/es-ES.yml", commit: { id: expect.any(Number) } });
    const again = await t.api("PUT", api("/es-ES"), dictionary, developer.token);
    expect(await again.json()).toMatchObject({ commit: null });
    const read = await t.api("GET", api("/es-ES"), undefined, developer.token);
    expect(((await read.json()) as { dictionary: unknown }).dictionary).toEqual({ locale: "es-ES", ...dictionary });
    const file = await t.api(
      "GET",
      `/build/api/v1/deployments/${deploymentId}/data-model/files?branch=main&path=translations/es-ES.yml`,
      undefined,
      developer.token,
    );
    expect(((await file.json()) as { files: { content: string }[] }).files[0]!.content).toContain("Pending: <b>Pendiente</b>");
  });

  it("titles views and members in the asked locale in GET …/meta, their names and the rest unchanged", async () => {
    type Meta = { sources: { name: string; title: string; measures: { name: string; title: string; shortTitle: string; type: string }[] }[] };
    const meta = async (query: string) => {
      const res = await t.api("GET", `/api/v1/deployments/${deploymentId}/meta${query}`, undefined, viewer.token);
      expect(res.status).toBe(200);
      return (await res.json()) as Meta;
    };
    const count = (m: Meta) => m.sources.flatMap((s) => s.measures).find((x) => x.name === "orders.count")!;
    // The es-ES dictionary of the test above: orders.count by `members`, "Orders" by `texts`.
    const spanish = await meta("?locale=es-ES");
    expect(count(spanish)).toMatchObject({ name: "orders.count", title: "Número de pedidos", shortTitle: "Número de pedidos", type: "number" });
    expect(spanish.sources[0]).toMatchObject({ name: "orders", title: "Pedidos" });
    const source = await meta("");
    expect(count(source).title).toBe("Orders Count");
    expect(source.sources[0]!.title).toBe("Orders");
    // A locale without a dictionary is the model's own titles; one that is no tag is refused.
    expect(count(await meta("?locale=fr-FR")).title).toBe("Orders Count");
    expect((await t.api("GET", `/api/v1/deployments/${deploymentId}/meta?locale=${encodeURIComponent("<x>")}`, undefined, viewer.token)).status).toBe(400);
  });

  it.each([
    ["a number as a text", { texts: { Orders: 3 } }, ["texts", "Orders"]],
    ["an unknown key", { colours: {} }, []],
    ["a member that is no member name", { members: { "not a member": "x" } }, ["members", "not a member"]],
    ["an oversized text", { texts: { Orders: "x".repeat(5000) } }, ["texts", "Orders"]],
    ["a NUL in a text", { texts: { Orders: "a\u0000b" } }, ["texts", "Orders"]],
    ["an array", [], []],
  ])("answers 400 and changes nothing for %s", async (_name, body, where) => {
    const res = await t.api("PUT", api("/de-DE"), body, developer.token);
    expect(res.status).toBe(400);
    const error = (await res.json()) as { code: string; details: { path: unknown[] }[] };
    expect(error.code).toBe("validation_failed");
    expect(error.details[0]!.path).toEqual(expect.arrayContaining(where));
    const read = await t.api("GET", api("/de-DE"), undefined, developer.token);
    expect(((await read.json()) as { dictionary: { texts: unknown } }).dictionary.texts).toEqual({ Orders: "Bestellungen" });
  });

  it("answers 400 for a locale that is not a tag, 404 for one without a dictionary", async () => {
    expect((await t.api("GET", api("/de-de"), undefined, developer.token)).status).toBe(400);
    expect((await t.api("PUT", api("/..%2Fx"), {}, developer.token)).status).toBe(400);
    expect((await t.api("GET", api("/fr-FR"), undefined, developer.token)).status).toBe(404);
  });

  it("lets developers and admins only read, write and report on dictionaries", async () => {
    for (const [method, p] of [
      ["GET", ""],
      ["GET", "/de-DE"],
      ["PUT", "/de-DE"],
      ["GET", "/de-DE/missing"],
    ] as const) {
      expect((await t.api(method, api(p), method === "PUT" ? {} : undefined, viewer.token)).status).toBe(403);
      expect((await t.api(method, api(p), method === "PUT" ? {} : undefined, null)).status).toBe(401);
    }
    expect((await t.api("GET", `/api/v1/deployments/999999/translations`, undefined, developer.token)).status).toBe(404);
  });

  it("reports the model's member titles and other locales' values a dictionary lacks", async () => {
    const res = await t.api("GET", api("/es-ES/missing"), undefined, developer.token);
    expect(res.status).toBe(200);
    const report = (await res.json()) as { missing: { kind: string; source: string; member?: string }[] };
    expect(report.missing).toEqual(
      expect.arrayContaining([
        { kind: "member", source: "Status", member: "orders.status", where: ["model"] },
        { kind: "value", source: "completed", member: "orders.status", where: ["dictionary:de-DE"] },
      ]),
    );
    // orders.count has a members entry, "Orders" a text: neither is missing.
    expect(report.missing.map((m) => m.member)).not.toContain("orders.count");
  });

  it("prints the missing report with svc translations missing, failing while anything is missing", async () => {
    const run = await svc(["translations", "missing", "--deployment", String(deploymentId), "--locale", "es-ES"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('value\torders.status = "completed"\tdictionary:de-DE');
    expect(run.stdout).toMatch(/es-ES: \d+ of \d+ translated, \d+ missing/);
  });
});
