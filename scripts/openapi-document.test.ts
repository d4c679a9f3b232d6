/**
 * The checked-in OpenAPI document (src/client/generated/openapi.json, `npm run gen:openapi`)
 * read by third-party tools: `redocly lint` with the recommended rules (redocly.yaml) and the
 * OpenAPI 3.1 schema validator of @seriousme/openapi-schema-validator, each as its CLI. Any
 * error fails the test, with the tool's output.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCUMENT = path.join(ROOT, "src", "client", "generated", "openapi.json");
const REDOCLY = path.join(ROOT, "node_modules", "@redocly", "cli", "bin", "cli.js");
const VALIDATE = path.join(ROOT, "node_modules", "@seriousme", "openapi-schema-validator", "bin", "validate-api-cli.js");

/** Runs a Node CLI; its exit status and output, never a throw. */
async function cli(script: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1" } });
    return { ok: true, output: stdout + stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: (e.stdout ?? "") + (e.stderr ?? "") || e.message };
  }
}

const lint = (file: string) => cli(REDOCLY, ["lint", file, "--config", path.join(ROOT, "redocly.yaml"), "--format=stylish"]);
const validate = (file: string) => cli(VALIDATE, [file]);

describe("the OpenAPI document read by third-party tools", () => {
  let dir: string;
  let broken: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "svc-openapi-"));
    // The same document with two defects each tool must see: a path with a trailing slash the
    // spec does not name, and a response without its required description.
    const doc = JSON.parse(await readFile(DOCUMENT, "utf8")) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    doc.paths["/api/v1/not-in-the-spec/"] = {
      get: { operationId: "notInTheSpec", security: [], tags: ["Operations"], summary: "x", responses: { "200": {} } },
    };
    broken = path.join(dir, "broken.json");
    await writeFile(broken, JSON.stringify(doc));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("passes redocly lint (recommended rules; only the spec's trailing-slash collection paths accepted)", async () => {
    const res = await lint(DOCUMENT);
    expect(res.ok, res.output).toBe(true);
    expect(res.output).not.toMatch(/\berror\b/);
    const bad = await lint(broken);
    expect(bad.ok).toBe(false);
    expect(bad.output).toMatch(/no-path-trailing-slash-but-the-spec-collections/);
    expect(bad.output).toMatch(/description/);
  }, 120_000);

  it("is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)", async () => {
    const res = await validate(DOCUMENT);
    expect(res.ok, res.output).toBe(true);
    expect(JSON.parse(res.output)).toMatchObject({ valid: true });
    const bad = await validate(broken);
    expect(bad.ok).toBe(false);
    expect(JSON.parse(bad.output)).toMatchObject({ valid: false });
  }, 120_000);
});
