import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INT4_MAX, MAX_JSON_DEPTH, NAME_MAX } from "../schema/common";
import { rowsOf } from "./modules/access/service";
import { createTestPlatform, storageKinds, type TestPlatform } from "./testing/test-platform";

/** One focused test per class of hostile input (docs/decisions.md "Hostile input"); the fuzz suite covers the rest. */
describe.each(storageKinds)("hostile input (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  let folderId: number;
  let workbookId: number;
  const base = () => `/api/v1/deployments/${dep}`;

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    [dep] = await t.addDeployments("main");
    folderId = (await (await t.api("POST", `${base()}/folders`, { name: "Shared" })).json()).id;
    workbookId = (await (await t.api("PUT", `${base()}/workbooks/by-slug/book`, { name: "Book", folderId })).json()).id;
    await t.api("POST", "/api/v1/user-attributes/", { name: "region", type: "string" });
  });
  afterAll(() => t?.close());

  const count = async (table: string) => Number((await rowsOf<{ n: string }>(t.database.db, sql.raw(`SELECT count(*) AS n FROM ${table}`)))[0]!.n);
  const rowText = async (table: string) => {
    const [row] = await rowsOf<{ h: string }>(t.database.db, sql.raw(`SELECT md5(coalesce(string_agg(x::text, ',' ORDER BY x.id), '')) AS h FROM ${table} x`));
    return row!.h;
  };

  /** A 400 `validation_failed` whose details name `path`. */
  async function expectRefused(res: Response, path: (string | number)[], message?: RegExp) {
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.code).toBe("validation_failed");
    expect(body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    if (message) expect(body.message).toMatch(message);
    return body;
  }

  describe("NUL in text", () => {
    it("is refused in a name, a meta key or value, on every workbook write, naming the JSON path; nothing is stored", async () => {
      const before = await rowText("workbooks");
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/new-one`, { name: "a\u0000b" }), ["name"], /NUL/);
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/book`, { meta: { note: "x\u0000" } }), ["meta", "note"]);
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/book`, { meta: { nested: [{ ["k\u0000"]: 1 }] } }), ["meta", "nested", 0, "k\u0000"]);
      await expectRefused(await t.api("POST", `${base()}/workbooks`, { name: "\u0000" }), ["name"]);
      await expectRefused(await t.api("PUT", `${base()}/workbooks/${workbookId}`, { name: "Book\u0000" }), ["name"]);
      await expectRefused(await t.api("POST", `${base()}/workbooks/${workbookId}/duplicate`, { name: "copy\u0000" }), ["name"]);
      expect(await rowText("workbooks")).toBe(before);
    });

    it("is refused in folder and report fields, user and attribute fields, and the login email", async () => {
      await expectRefused(await t.api("POST", `${base()}/folders`, { name: "f\u0000" }), ["name"]);
      await expectRefused(await t.api("PUT", `${base()}/reports/by-public-id/ABCDEFabcdef`, { title: "\u0000" }), ["title"]);
      await expectRefused(await t.api("POST", "/api/v1/users/", { email: "n@example.com", lastName: "\u0000" }), ["lastName"]);
      await expectRefused(await t.api("POST", "/api/v1/user-attributes/", { name: "nul", type: "string", defaultValue: "a\u0000" }), ["defaultValue"]);
      await expectRefused(await t.api("POST", "/api/v1/auth/login", { email: "a\u0000@example.com", password: "x" }, null), ["email"]);
      expect(await count("reports")).toBe(0);
      expect(await count("user_attributes")).toBe(1);
    });

    it("is refused in a session's externalId, profile and security context, and nothing of the session is written", async () => {
      const users = await count("embed_users");
      await expectRefused(await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: dep, externalId: "u\u0000" }), ["externalId"]);
      await expectRefused(
        await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: dep, externalId: "u1", userProfile: { displayName: "\u0000" } }),
        ["userProfile", "displayName"],
      );
      await expectRefused(
        await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: dep, externalId: "u1", securityContext: { team: ["a", "\u0000"] } }),
        ["securityContext", "team", 1],
      );
      expect(await count("embed_users")).toBe(users);
      expect(await count("embed_sessions")).toBe(0);
    });

    it("is refused in query-string parameters (search and the rest), naming the parameter", async () => {
      await expectRefused(await t.api("GET", `${base()}/workbooks?search=a%00b`), ["search"]);
      await expectRefused(await t.api("GET", `${base()}/reports?search=%00`), ["search"]);
      await expectRefused(await t.api("GET", `${base()}/reports?externalWorkbookId=x%00`), ["externalWorkbookId"]);
      await expectRefused(await t.api("GET", `${base()}/workbooks?unknown%00=1`), ["unknown\u0000"]);
    });
  });

  describe("unpaired UTF-16 surrogates", () => {
    it("are refused in values and keys, where they used to be stored as U+FFFD or refused by jsonb", async () => {
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/book`, { meta: { k: "\ud800" } }), ["meta", "k"], /surrogate/);
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/book`, { meta: { ["\udc00"]: 1 } }), ["meta", "\udc00"]);
      await expectRefused(await t.api("POST", `${base()}/folders`, { name: "x\udbff" }), ["name"]);
      await expectRefused(await t.api("POST", `${base()}/folders`, { name: "\ud83d\ude00\ud83d" }), ["name"]);
    });

    it("accepts paired surrogates (emoji and other astral characters) and stores them unchanged", async () => {
      const res = await t.api("POST", `${base()}/folders`, { name: "Charts \ud83d\udcca \ud841\udf0e" });
      expect(res.status).toBe(201);
      const folder = await res.json();
      expect(folder.name).toBe("Charts \ud83d\udcca \ud841\udf0e");
      expect((await (await t.api("GET", `${base()}/folders/${folder.id}`)).json()).name).toBe("Charts \ud83d\udcca \ud841\udf0e");
    });
  });

  describe("nesting depth", () => {
    const nested = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);

    it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels before parsing it, naming the limit`, async () => {
      for (const body of [`{"meta":${nested(5_000)}}`, `{"meta":{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`, "[".repeat(200_000)]) {
        const res = await t.api("PUT", `${base()}/workbooks/by-slug/book`, body);
        const err = await expectRefused(res, []);
        expect(err.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      }
    });

    it("refuses deep security contexts and deep query filters at the edge too", async () => {
      const ctx = await t.api("POST", "/api/v1/embed/generate-session", `{"deploymentId":${dep},"securityContext":${nested(3_000)}}`);
      expect((await expectRefused(ctx, [])).message).toContain(`${MAX_JSON_DEPTH} levels`);
      const filter = '{"or":['.repeat(2_000) + '{"member":"x.y","operator":"set"}' + "]}".repeat(2_000);
      const query = await t.api("POST", `${base()}/query`, `{"query":{"measures":["x.count"],"filters":[${filter}]}}`);
      expect((await expectRefused(query, [])).message).toContain(`${MAX_JSON_DEPTH} levels`);
    });

    it(`accepts exactly ${MAX_JSON_DEPTH} levels`, async () => {
      // The body object is level 1; meta's value adds 63 more.
      const ok = await t.api("PUT", `${base()}/workbooks/by-slug/deep-ok`, `{"meta":${nested(MAX_JSON_DEPTH - 1)}}`);
      expect(ok.status, await ok.clone().text()).toBe(200);
      const tooDeep = await t.api("PUT", `${base()}/workbooks/by-slug/deep-ok`, `{"meta":${nested(MAX_JSON_DEPTH)}}`);
      await expectRefused(tooDeep, []);
    });
  });

  describe("number range", () => {
    it("refuses ids and foreign keys beyond int4 in bodies, naming the field", async () => {
      const big = 99_999_999_999;
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/book`, { folderId: big }), ["folderId"], /2147483647/);
      await expectRefused(await t.api("POST", `${base()}/folders`, { name: "x", parentId: INT4_MAX + 1 }), ["parentId"]);
      await expectRefused(await t.api("PUT", `${base()}/reports/by-public-id/ABCDEFabcdef`, { workbookId: big }), ["workbookId"]);
      const grant = { objectType: "workbook", objectId: big, principalType: "user", principalId: 1, level: "read" };
      await expectRefused(await t.api("PUT", `${base()}/grants`, grant), ["objectId"]);
      await expectRefused(await t.api("POST", "/api/v1/embed/generate-session", { deploymentId: big }), ["deploymentId"]);
      await expectRefused(await t.api("POST", `${base()}/workspace/bulk-delete`, { items: [{ type: "WORKBOOK", id: big }] }), ["items", 0, "id"]);
      await expectRefused(await t.api("POST", "/api/v1/user-attribute-values/", { userId: big, values: [{ name: "region", value: "x" }] }), ["userId"]);
    });

    it("accepts the largest int4 id (and answers 404 for it)", async () => {
      expect((await t.api("GET", `${base()}/workbooks/${INT4_MAX}`)).status).toBe(404);
      expect((await t.api("PUT", `${base()}/workbooks/by-slug/book`, { folderId: INT4_MAX })).status).toBe(404);
    });

    it("refuses hand-made cursors with ids beyond int4 or text the database refuses", async () => {
      const cursor = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
      await expectRefused(await t.api("GET", `${base()}/workbooks?after=${cursor({ id: 99_999_999_999 })}`), ["after"]);
      await expectRefused(await t.api("GET", `${base()}/reports?after=${cursor({ v: "\u0000", id: 1 })}`), ["after"]);
      await expectRefused(await t.api("GET", `${base()}/reports?sortBy=createdAt&after=${cursor({ v: "x", id: -1 })}`), ["after"]);
      await expectRefused(await t.api("GET", `${base()}/workspace?after=${cursor({ r: 1e20, id: 1 })}`), ["after"]);
    });

    it("refuses a dashboard widget that points at a report id beyond int4, with the path in the draft", async () => {
      // Refused when the draft is written (a draft may name only reports its writer can read).
      const draft = { widgets: [{ id: "c1", type: "CHART", position: { x: 0, y: 0, w: 4, h: 4 }, config: { reportId: 99_999_999_999 } }] };
      await expectRefused(await t.api("PUT", `${base()}/workbooks/${workbookId}/dashboard/draft`, draft), ["widgets", 0, "config", "reportId"]);
    });
  });

  describe("path and query-string ids", () => {
    it.each([" 1", "%201", "1%20", "1.0", "1e0", "1e3", "0x1", "+1", "01", "-1", "0", "2147483648", "99999999999", "1n", "%D9%A1", "1_0"])(
      "refuses the id %j: decimal digits only, within int4",
      async (id) => {
        await expectRefused(await t.api("GET", `/api/v1/deployments/${id}`), ["deploymentId"]);
      },
    );

    it("accepts plain decimal ids", async () => {
      expect((await t.api("GET", `/api/v1/deployments/${dep}`)).status).toBe(200);
      expect((await t.api("GET", `${base()}/workbooks/${workbookId}`)).status).toBe(200);
    });

    it("applies the same rule to ids and counts in query strings", async () => {
      await expectRefused(await t.api("GET", `${base()}/workbooks?folderId=1e0`), ["folderId"]);
      await expectRefused(await t.api("GET", `${base()}/workspace?folderId=0x1`), ["folderId"]);
      await expectRefused(await t.api("GET", `${base()}/workbooks?first=1e1`), ["first"]);
      await expectRefused(await t.api("GET", `${base()}/reports?first=%2010`), ["first"]);
      expect((await t.api("GET", `${base()}/workbooks?folderId=${folderId}&first=10`)).status).toBe(200);
      expect((await t.api("GET", `${base()}/workbooks?folderId=root`)).status).toBe(200);
    });
  });

  describe("length limits", () => {
    const long = "x".repeat(NAME_MAX + 1);
    const longest = "y".repeat(NAME_MAX);

    it(`caps workbook names at ${NAME_MAX} on every path that writes one`, async () => {
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/long-name`, { name: long }), ["name"]);
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/book`, { name: long }), ["name"]);
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/big`, { name: "x".repeat(900_000) }), ["name"]);
      await expectRefused(await t.api("POST", `${base()}/workbooks`, { name: long }), ["name"]);
      await expectRefused(await t.api("PUT", `${base()}/workbooks/${workbookId}`, { name: long }), ["name"]);
      await expectRefused(await t.api("POST", `${base()}/workbooks/${workbookId}/duplicate`, { name: long }), ["name"]);
      expect((await t.api("PUT", `${base()}/workbooks/by-slug/long-name`, { name: longest })).status).toBe(200);
    });

    it("keeps a duplicate's generated name within the limit, without splitting a character", async () => {
      const name = "😀".repeat(NAME_MAX / 2 - 1) + "z";
      const wb = await (await t.api("PUT", `${base()}/workbooks/by-slug/emoji-name`, { name })).json();
      expect(wb.name).toBe(name);
      const copy = await (await t.api("POST", `${base()}/workbooks/${wb.id}/duplicate`, {})).json();
      expect(copy.name.length).toBeLessThanOrEqual(NAME_MAX);
      expect(copy.name).toMatch(/^(😀)+ \(copy\)$/);
    });

    it(`caps folder and report names at ${NAME_MAX}, report titles and descriptions too`, async () => {
      await expectRefused(await t.api("POST", `${base()}/folders`, { name: long }), ["name"]);
      await expectRefused(await t.api("PUT", `${base()}/folders/${folderId}`, { name: long }), ["name"]);
      await expectRefused(await t.api("PUT", `${base()}/reports/by-public-id/ABCDEFabcdef`, { name: long }), ["name"]);
      await expectRefused(await t.api("PUT", `${base()}/reports/by-public-id/ABCDEFabcdef`, { title: long }), ["title"]);
      await expectRefused(await t.api("PUT", `${base()}/reports/by-public-id/ABCDEFabcdef`, { description: "d".repeat(10_001) }), ["description"]);
      const created = await t.api("PUT", `${base()}/reports/by-public-id/ABCDEFabcdef`, { name: longest, title: longest });
      expect(created.status).toBe(200);
      await expectRefused(await t.api("PUT", `${base()}/reports/by-public-id/ABCDEFabcdef`, { name: long }), ["name"]);
    });

    it("trims names the same way on create and update", async () => {
      const created = await (await t.api("POST", `${base()}/workbooks`, { name: "  Padded  " })).json();
      expect(created.name).toBe("Padded");
      await expectRefused(await t.api("PUT", `${base()}/workbooks/by-slug/blank`, { name: "   " }), ["name"]);
    });
  });

  describe("API key expiry", () => {
    it("refuses creating a key that is already expired", async () => {
      const keys = await count("api_keys");
      await expectRefused(await t.api("POST", "/api/v1/api-keys", { name: "old", expiresAt: "2000-01-01T00:00:00Z" }), ["expiresAt"], /future/);
      await expectRefused(await t.api("POST", "/api/v1/api-keys", { name: "now", expiresAt: new Date(Date.now() - 1_000).toISOString() }), ["expiresAt"]);
      expect(await count("api_keys")).toBe(keys);
    });

    it("creates a key that expires in the future, and one that never expires", async () => {
      const soon = await t.api("POST", "/api/v1/api-keys", { name: "soon", expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
      expect(soon.status).toBe(201);
      const { token } = await soon.json();
      expect((await t.api("GET", "/api/v1/auth/me", undefined, token)).status).toBe(200);
      expect((await t.api("POST", "/api/v1/api-keys", { name: "forever", expiresAt: null })).status).toBe(201);
    });
  });

  describe("odd headers", () => {
    it.each([
      ["content-type", "text/plain"],
      ["content-type", "application/json; charset=utf-16"],
      ["content-type", 'application/json; charset="'],
      ["content-type", "multipart/form-data"],
      ["content-type", "application/x-www-form-urlencoded"],
      ["authorization", "Bearer"],
      ["authorization", "Basic dXNlcjpwYXNz"],
      ["authorization", "Bearer \u00e9\u00ff"],
      ["cookie", "svc_session=%E0%A4%A"],
      ["cookie", ";;;=;"],
      ["x-csrf-token", "\u00ff".repeat(50)],
    ])("never fail on %s: %j", async (name, value) => {
      const headers: Record<string, string> = { authorization: `Bearer ${t.adminToken}`, "content-type": "application/json", [name]: value };
      const res = await t.app.request(`${base()}/folders`, { method: "POST", headers, body: JSON.stringify({ name: "h" }) });
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expect(await res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    });

    it("answers an unsupported media type with 415 unsupported_media_type", async () => {
      const res = await t.app.request(`${base()}/folders`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.adminToken}`, "content-type": "text/plain" },
        body: JSON.stringify({ name: "h" }),
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ code: "unsupported_media_type" });
    });
  });
});
