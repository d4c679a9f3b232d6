import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";

const pgSource = { type: "postgres", host: "db.internal.example", port: 5432, database: "shop", user: "reader" };
const model = { path: "orders.yml", content: "cubes:\n  - name: orders\n    sql_table: orders\n    measures:\n      - { name: count, type: count }\n" };

describe.each(storageKinds)("deployment creation and set-up wizard (%s)", (storage) => {
  let t: TestPlatform;
  let dev: { id: number; token: string };
  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    dev = await t.addUser("dev@example.com", "developer");
  });
  afterAll(() => t?.close());

  const create = (body: Record<string, unknown>) => t.api("POST", "/build/api/v1/deployments/", { name: "w", dataSource: pgSource, ...body }, dev.token);
  const step = (id: number, s: string, input: unknown = {}, token = dev.token) =>
    t.api("POST", `/api/v1/deployments/${id}/creation-step/advance`, { step: s, input }, token);

  it("takes the spec's enums and refuses others", async () => {
    const res = await create({ cloudProvider: "aws", creationMethod: "git", deployMode: "git", region: "eu-west-1" });
    expect(res.status).toBe(201);
    const id = (await res.json()).id;
    const setup = await (await t.api("GET", `/api/v1/deployments/${id}/creation-step`, undefined, dev.token)).json();
    expect(setup).toMatchObject({ cloudProvider: "aws", creationMethod: "git", deployMode: "git", region: "eu-west-1", step: "data-source", completed: [] });
    for (const bad of [{ cloudProvider: "azure" }, { creationMethod: "ftp" }, { deployMode: "manual" }]) expect((await create(bad)).status).toBe(400);
    const defaults = await (await t.api("GET", `/api/v1/deployments/${(await (await create({})).json()).id}/creation-step`, undefined, dev.token)).json();
    expect(defaults).toMatchObject({ cloudProvider: "svccloud", creationMethod: "upload", deployMode: "cli" });
  });

  it("walks the steps in order, validating each, and starts over on reset", async () => {
    const id = (await (await create({})).json()).id;
    expect((await step(id, "data-model")).status).toBe(409);
    const badInput = await step(id, "data-source", { dataSource: { type: "postgres", host: "bad host!" } });
    expect(badInput.status).toBe(400);
    expect((await badInput.json()).details[0].path[0]).toBe("input");
    expect(await (await step(id, "data-source", { dataSource: { ...pgSource, database: "other" } })).json()).toMatchObject({
      step: "data-model",
      completed: ["data-source"],
    });
    // No model yet: the step refuses, saying how to add one.
    const empty = await step(id, "data-model");
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toMatch(/no data model/);
    const up = await (await t.api("POST", `/build/api/v1/deployments/${id}/data-model/upload/start`, { branch: "main", mode: "replace" }, dev.token)).json();
    await t.api(
      "POST",
      `/build/api/v1/deployments/${id}/data-model/upload/file`,
      {
        uploadId: up.uploadId,
        path: model.path,
        content: Buffer.from(model.content).toString("base64"),
        sha256: createHash("sha256").update(model.content).digest("hex"),
      },
      dev.token,
    );
    await t.api("POST", `/build/api/v1/deployments/${id}/data-model/upload/finish`, { uploadId: up.uploadId, message: "model" }, dev.token);
    expect((await (await step(id, "data-model")).json()).step).toBe("embedding");
    // Allowed origins are an admin's to change.
    expect((await step(id, "embedding", { allowedOrigins: ["https://app.example.com"] })).status).toBe(403);
    expect((await step(id, "embedding", { allowedOrigins: ["not an origin"] }, t.adminToken)).status).toBe(400);
    expect((await (await step(id, "embedding", { allowedOrigins: ["https://app.example.com"] }, t.adminToken)).json()).step).toBe("done");
    expect((await (await t.api("GET", "/api/v1/embed/allowed-origins")).json()).origins).toContain("https://app.example.com");
    expect((await step(id, "done")).status).toBe(409);
    const reset = await t.api("POST", `/api/v1/deployments/${id}/creation-step/reset`, undefined, dev.token);
    expect(await reset.json()).toMatchObject({ step: "data-source", completed: [] });
  });

  it("creates a deployment with the body of decisions.md (no data source); until the data-source step gives one, queries answer a clear 400", async () => {
    const res = await t.api(
      "POST",
      "/build/api/v1/deployments/",
      { name: "wizard", cloudProvider: "svccloud", creationMethod: "upload", deployMode: "cli" },
      dev.token,
    );
    expect(res.status).toBe(201);
    const dep = await res.json();
    expect(dep.dataSource).toBeNull();
    expect((await (await t.api("GET", `/api/v1/deployments/${dep.id}`, undefined, dev.token)).json()).dataSource).toBeNull();
    const listed = await (await t.api("GET", "/api/v1/deployments?first=100", undefined, dev.token)).json();
    expect(listed.items.find((d: { id: number }) => d.id === dep.id).dataSource).toBeNull();
    const noSource = { code: "data_source_not_configured", message: expect.stringMatching(/No data source configured/) };
    for (const [path, body] of [
      ["query", { query: { measures: ["orders.count"] } }],
      ["query/sql", { query: { measures: ["orders.count"] } }],
      ["query/values", { member: "orders.status" }],
    ] as const) {
      const q = await t.api("POST", `/api/v1/deployments/${dep.id}/${path}`, body, dev.token);
      expect(q.status, path).toBe(400);
      expect(await q.json(), path).toMatchObject(noSource);
    }
    const meta = await t.api("GET", `/api/v1/deployments/${dep.id}/meta`, undefined, dev.token);
    expect(meta.status).toBe(400);
    expect(await meta.json()).toMatchObject(noSource);
    const chat = await t.api("POST", `/api/v1/deployments/${dep.id}/chat/threads`, {}, dev.token);
    expect(chat.status).toBe(400);
    expect(await chat.json()).toMatchObject(noSource);
    // The wizard's data-source step needs one now; then the deployment has it.
    const empty = await step(dep.id, "data-source", {});
    expect(empty.status).toBe(400);
    expect((await empty.json()).details[0].path).toEqual(["input", "dataSource"]);
    expect((await (await step(dep.id, "data-source", { dataSource: pgSource })).json()).step).toBe("data-model");
    expect((await (await t.api("GET", `/api/v1/deployments/${dep.id}`, undefined, dev.token)).json()).dataSource).toMatchObject({ type: "postgres" });
  });

  it("answers 404 for an unknown deployment and 403 for viewers", async () => {
    expect((await t.api("GET", "/api/v1/deployments/999999/creation-step", undefined, dev.token)).status).toBe(404);
    const viewer = await t.addUser("v@example.com", "viewer");
    expect((await t.api("GET", "/api/v1/deployments/1/creation-step", undefined, viewer.token)).status).toBe(403);
  });
});
