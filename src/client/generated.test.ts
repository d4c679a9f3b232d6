import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, OPENAPI_JSON_PATH, renderGeneratedFiles, SCHEMA_TS_PATH } from "../../scripts/gen-openapi";

describe("generated client types", () => {
  it("match the server's current OpenAPI document", async () => {
    const fresh = await renderGeneratedFiles(await buildOpenApiDocument());
    const [json, ts] = await Promise.all([readFile(OPENAPI_JSON_PATH, "utf8"), readFile(SCHEMA_TS_PATH, "utf8")]);
    expect(json === fresh.openapiJson, "src/client/generated/openapi.json is stale: run npm run gen:openapi").toBe(true);
    expect(ts === fresh.schemaTs, "src/client/generated/schema.ts is stale: run npm run gen:openapi").toBe(true);
  });
});
