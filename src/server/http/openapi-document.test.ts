import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "../testing/test-platform";
import { normalizeOpenApiDocument } from "./openapi-document";

type Json = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Spec 1: the API's tags. */
const SPEC_TAGS =
  "Deployments, Deployment Creation, Environments, Env Variables, Regions, Data Model, Data Model Uploads, Git Host, Git Host Connection, Transformation-tool Sync, Folders, Reports, Workbooks, Notifications, Workspace, Users Admin, User Attributes, User Attribute Values, Tenant Settings, OAuth Integrations, User OAuth Tokens, OIDC Token Configs, App Theme, Embed, Embed Tenants, Dashboard Embed Access".split(
    ", ",
  );

function walk(value: unknown, visit: (node: Json, at: string) => void, at = "#"): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, visit, `${at}/${i}`));
  else if (value && typeof value === "object") {
    visit(value as Json, at);
    for (const [k, v] of Object.entries(value)) walk(v, visit, `${at}/${k}`);
  }
}

describe("the OpenAPI document", () => {
  let t: TestPlatform;
  let doc: Json;
  let ajv: Ajv2020;
  const schemas = () => (doc.components as { schemas: Record<string, Json> }).schemas;
  const accepts = (schema: unknown, value: unknown) => ajv.validate({ ...(schema as Json) }, value);

  beforeAll(async () => {
    t = await createTestPlatform();
    const res = await t.app.request("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    doc = (await res.json()) as Json;
    ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi" });
  });
  afterAll(async () => {
    await t?.close();
  });

  const prop = (schema: string, ...keys: string[]) => {
    let node: Json = schemas()[schema]!;
    for (const k of keys) node = (node.properties as Record<string, Json>)[k]!;
    return JSON.parse(JSON.stringify(node).replaceAll('"#/components', '"openapi#/components')) as Json;
  };

  it("lets every nullable object be null, and still checks the object when it is not", () => {
    const nullable: [string, ...string[]][] = [
      ["Workbook", "dashboardDraft"],
      ["Workbook", "dashboardPublished"],
      ["Workbook", "publishedDashboard"],
      ["EmbedViewer", "embedTheme"],
      ...["lg", "md", "sm", "xs", "xxs"].map((bp): [string, ...string[]] => ["DashboardWidget", "responsiveLayouts", bp]),
    ];
    for (const [schema, ...keys] of nullable) {
      expect(accepts(prop(schema, ...keys), null), `${schema}.${keys.join(".")} accepts null`).toBe(true);
      expect(accepts(prop(schema, ...keys), "not an object"), `${schema}.${keys.join(".")} refuses a string`).toBe(false);
    }
    expect(accepts(prop("DashboardWidget", "responsiveLayouts", "lg"), { x: 0, y: 0, w: 4, h: 3 })).toBe(true);
    // Nowhere an allOf that a null cannot satisfy.
    walk(doc, (node, at) => {
      const all = node.allOf as Json[] | undefined;
      if (Array.isArray(all))
        expect(
          all.some((s) => Array.isArray(s.type) && s.type.includes("null")),
          at,
        ).toBe(false);
    });
  });

  it("rewrites the generator's nullable reference and keeps its siblings", () => {
    const out = normalizeOpenApiDocument({
      paths: {},
      components: { schemas: { A: { properties: { b: { allOf: [{ $ref: "#/x" }, { type: ["object", "null"], description: "d" }] } } } } },
    });
    expect((out.components as Json).schemas).toEqual({ A: { properties: { b: { anyOf: [{ $ref: "#/x" }, { type: "null" }], description: "d" } } } });
  });

  it("declares every timestamp as a date-time (spec 2.2)", () => {
    const found: string[] = [];
    // The schemas answers use (an input may accept a read-back field in any form and ignore it).
    const reachable = new Set<string>();
    const follow = (value: unknown) =>
      walk(value, (node) => {
        const name = typeof node.$ref === "string" ? node.$ref.split("/").pop()! : null;
        if (name && !reachable.has(name)) {
          reachable.add(name);
          follow(schemas()[name]);
        }
      });
    for (const item of Object.values(doc.paths as Record<string, Record<string, Json>>)) for (const op of Object.values(item)) follow(op.responses);
    const answers = Object.fromEntries(Object.entries(schemas()).filter(([name]) => reachable.has(name)));
    walk(answers, (node, at) => {
      for (const [name, raw] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
        if (!/(?:^|[a-z])At$/.test(name)) continue;
        found.push(`${at}/${name}`);
        const formats = [raw, ...((raw.anyOf ?? []) as Json[])].map((s) => s.format).filter(Boolean);
        expect(formats, `${at}/properties/${name}`).toEqual(["date-time"]);
      }
    });
    expect(found).toContain("#/Workbook/createdAt");
    expect(found).toContain("#/Workbook/updatedAt");
    expect(accepts(prop("Workbook", "createdAt"), "2026-01-02T03:04:05.678Z")).toBe(true);
    expect(accepts(prop("Workbook", "createdAt"), "2026-01-02 03:04:05")).toBe(false);
  });

  it("declares no security on the operations that need no credentials", () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const open = [
      ["post", "/api/v1/auth/login"],
      ["post", "/api/v1/auth/logout"],
      ["post", "/api/v1/auth/sign-in-link"],
      ["post", "/api/v1/embed/session/token"],
      ["get", "/api/v1/health"],
    ] as const;
    for (const [method, p] of open) expect(paths[p]![method]!.security, `${method} ${p}`).toEqual([]);
    for (const [p, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) expect(op.security, `${method} ${p} declares its security`).toBeDefined();
    }
  });

  it("lists its tags at the top level: the spec's, each with a description, and every tag an operation uses", () => {
    const tags = doc.tags as { name: string; description?: string }[];
    const names = tags.map((tag) => tag.name);
    for (const tag of SPEC_TAGS) expect(names).toContain(tag);
    for (const tag of tags) expect(tag.description, tag.name).toBeTruthy();
    const paths = doc.paths as Record<string, Record<string, { tags?: string[] }>>;
    for (const item of Object.values(paths)) for (const op of Object.values(item)) for (const tag of op.tags ?? []) expect(names).toContain(tag);
    expect(paths["/api/v1/deployments/{deploymentId}/env-vars"]!.get!.tags).toEqual(["Env Variables"]);
    expect(paths["/build/api/v1/deployments/{deploymentId}/dev-mode"]!.post!.tags).toEqual(["Environments"]);
  });

  it("is served at /build/api/v1/openapi.json too, the same document", async () => {
    const res = await t.app.request("/build/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(doc);
  });

  describe("POST /build/api/v1/deployments/{deploymentId}/<git-host>/connect (spec 4.2)", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), "svc-connect-"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** A bare repository whose main branch holds model/orders.yml. */
    function bareRepo(name: string) {
      const git = (cwd: string, ...args: string[]) =>
        execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main", ...args], { cwd });
      const bare = path.join(dir, `${name}.git`);
      const work = path.join(dir, `${name}-work`);
      mkdirSync(bare);
      git(bare, "init", "-q", "--bare");
      mkdirSync(path.join(work, "model"), { recursive: true });
      git(work, "init", "-q");
      writeFileSync(
        path.join(work, "model", "orders.yml"),
        "cubes:\n  - name: orders\n    sql_table: orders\n    measures:\n      - { name: count, type: count }\n",
      );
      git(work, "add", "-A");
      git(work, "commit", "-q", "-m", "model");
      git(work, "push", "-q", bare, "HEAD:refs/heads/main");
      return bare;
    }

    it("is documented and served for each git host, like the discovery routes", async () => {
      const paths = doc.paths as Record<string, Record<string, Json>>;
      for (const host of ["github", "gitea"]) {
        expect(paths[`/build/api/v1/deployments/{deploymentId}/${host}/connect`]?.post, host).toBeDefined();
        const [id] = await t.addDeployments(`connect-${host}`);
        const bare = bareRepo(host);
        const res = await t.api("POST", `/build/api/v1/deployments/${id}/${host}/connect`, { url: bare, branch: "main" });
        expect(res.status, host).toBe(200);
        expect(await res.json()).toMatchObject({ url: bare, branch: "main", imported: true });
      }
      expect(paths["/build/api/v1/deployments/{deploymentId}/git/connect"]?.post?.deprecated).toBe(true);
    });
  });
});
