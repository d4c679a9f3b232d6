/**
 * Test set-up shared by the chat and AI tests: a deployment of the demo data model on a DuckDB
 * file, created through the build API, and a signed embed session exchanged for its token, as a
 * host's backend and the embed would do.
 */
import { demoModelFiles } from "../demo/seed";
import type { TestPlatform } from "./test-platform";

/** The demo model (`sales` view, its cubes) on this DuckDB file; resolves with the deployment's id. */
export async function createShopDeployment(t: TestPlatform, duckdbPath: string): Promise<number> {
  const res = await t.api("POST", "/build/api/v1/deployments/", {
    name: "shop",
    dataSource: { type: "duckdb", path: duckdbPath },
    dataModelFiles: demoModelFiles(),
  });
  if (res.status !== 201) throw new Error(`creating the shop deployment answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

/** A signed embed session of `deploymentId` (generate-session `body`), and the token it was exchanged for. */
export async function embedSession(t: TestPlatform, deploymentId: number, body: Record<string, unknown>): Promise<{ sessionId: string; token: string }> {
  const gen = await t.api("POST", "/api/v1/embed/generate-session", { deploymentId, ...body });
  if (gen.status !== 200) throw new Error(`generate-session answered ${gen.status}: ${await gen.text()}`);
  const { sessionId } = (await gen.json()) as { sessionId: string };
  const ex = await t.api("POST", "/api/v1/embed/session/token", { sessionId }, null);
  if (ex.status !== 200) throw new Error(`the session exchange answered ${ex.status}: ${await ex.text()}`);
  return { sessionId, token: ((await ex.json()) as { token: string }).token };
}
