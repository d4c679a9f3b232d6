import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generateDemoDataset } from "../demo/dataset";
import { createShopDeployment } from "../testing/shop-deployment";
import { createTestPlatform, type TestPlatform } from "../testing/test-platform";

/**
 * Settings are read once, at start-up (config.ts): whatever the environment holds later (an
 * empty SVC_AI_BASE_URL, as docker-compose writes an unset value, or garbage) never turns a
 * chat request into a 500.
 */
let t: TestPlatform;
let dir: string;
let deploymentId: number;
const saved = { ...process.env };

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "svc-ai-settings-"));
  const duckdbPath = path.join(dir, "shop.duckdb");
  await generateDemoDataset({ path: duckdbPath, rows: 500 });
  t = await createTestPlatform();
  deploymentId = await createShopDeployment(t, duckdbPath);
}, 60_000);

afterAll(async () => {
  for (const k of Object.keys(process.env)) if (k.startsWith("SVC_AI_") && !(k in saved)) delete process.env[k];
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

it("answers chat requests whatever the process environment holds after start-up", async () => {
  for (const env of [{ SVC_AI_BASE_URL: "" }, { SVC_AI_PROVIDER: "openai-compatible", SVC_AI_BASE_URL: "not a url", SVC_AI_TIME_BUDGET_MS: "x" }]) {
    Object.assign(process.env, env);
    const thread = await t.api("POST", `/api/v1/deployments/${deploymentId}/chat/threads`, {});
    expect(thread.status).toBe(201);
    const { id } = (await thread.json()) as { id: string };
    const res = await t.api("POST", `/api/v1/deployments/${deploymentId}/chat/threads/${id}/messages`, { content: "revenue by country" });
    expect(res.status, JSON.stringify(env)).toBe(200);
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => "error" in l)).toBeUndefined();
    expect(lines.at(-1)).toHaveProperty("__state__");
  }
});
