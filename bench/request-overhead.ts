/**
 * The fixed cost of one authenticated request: the trivial endpoint
 * (`GET /api/v1/deployments/{id}`) for an admin API key and for an embed viewer, against a bare
 * Hono app on the same Node adapter answering the same JSON, one of each in turn.
 *   npx tsx bench/request-overhead.ts [--runs 2000] [--json]
 * Starts the platform in-process (PGlite storage in a temporary folder, a small demo data set)
 * and the bare app beside it, each on a loopback port; the HTTP client runs in a worker thread
 * (bench/http-client.ts). Goals: p50 ≤ 1 ms and ≤ 3× the bare app.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { loadConfig } from "../src/server/config";
import { createLogger } from "../src/server/logger";
import { startPlatform } from "../src/server/platform";
import { figure, printFigures, say, type Figure, type Goal } from "./figures";
import { startClient } from "./http-client";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const runs = Number(arg("runs", "2000"));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => ok(port));
    });
  });
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-bench-request-"));
  const adminToken = "svc_" + randomBytes(24).toString("base64url");
  const config = loadConfig({
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    SVC_DATA_DIR: dataDir,
    SVC_DEMO_ROWS: "2000",
    SVC_DEMO_HOST_PORT: "0",
    SVC_ADMIN_TOKEN: adminToken,
    SVC_LOG_LEVEL: "silent",
  });
  const platform = await startPlatform(config, createLogger("silent"));
  const client = startClient();
  let bare: ReturnType<typeof serve> | undefined;
  try {
    const base = `http://127.0.0.1:${platform.port}`;
    const call = async (method: string, path: string, body?: unknown, token = adminToken) => {
      const reply = await client.send({ method, url: base + path, token, body });
      if (reply.status < 200 || reply.status > 299) throw new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.json)}`);
      return reply.json as Record<string, unknown>;
    };
    const list = await call("GET", "/api/v1/deployments");
    const dep = (list.items as { id: number }[])[0]!;
    const path = `/api/v1/deployments/${dep.id}`;
    const { sessionId } = (await call("POST", "/api/v1/embed/generate-session", {
      deploymentId: dep.id,
      externalId: "bench",
      embedTenantName: "acme-corp",
    })) as {
      sessionId: string;
    };
    const { token: embedToken } = (await call("POST", "/api/v1/embed/session/token", { sessionId })) as { token: string };
    const answer = await call("GET", path);

    // The floor: Hono on the same adapter, answering the same JSON to the same request.
    const app = new Hono();
    app.get("/api/v1/deployments/:id", (c) => c.json(answer));
    const bareUrl = await new Promise<string>((resolve) => {
      bare = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`));
    });

    const timed = async (url: string, token?: string) => {
      const reply = await client.send({ method: "GET", url, token });
      if (reply.status !== 200) throw new Error(`GET ${url} → ${reply.status}`);
      return reply.ms;
    };
    const admin: number[] = [];
    const viewer: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 200; i++) {
      await timed(base + path, adminToken);
      await timed(base + path, embedToken);
      await timed(bareUrl + path, adminToken);
    }
    for (let i = 0; i < runs; i++) {
      admin.push(await timed(base + path, adminToken));
      floor.push(await timed(bareUrl + path, adminToken));
      viewer.push(await timed(base + path, embedToken));
    }
    const goal: Goal = { text: "≤ 1 ms and ≤ 3×", met: (f) => f.value <= 1 && f.ratio !== null && f.ratio <= 3 };
    const f0 = pct(floor, 0.5);
    const figures: Figure[] = [
      figure("trivial authenticated endpoint p50, admin API key, vs a bare Hono app", pct(admin, 0.5), "ms", { baseline: f0, goal }),
      figure("trivial authenticated endpoint p50, embed viewer, vs a bare Hono app", pct(viewer, 0.5), "ms", { baseline: f0, goal }),
    ];
    say(`GET ${path}, ${runs} runs each, one of each in turn; ms (client in a worker thread)`);
    say(`  caller          p50     p90     p99`);
    for (const [who, xs] of [
      ["bare Hono", floor],
      ["admin API key", admin],
      ["embed viewer", viewer],
    ] as const)
      say(`  ${who.padEnd(14)} ${pct(xs, 0.5).toFixed(3)}  ${pct(xs, 0.9).toFixed(3)}  ${pct(xs, 0.99).toFixed(3)}`);
    for (const f of figures)
      say(`${f.figure}: ${f.value.toFixed(3)} vs ${f.baseline!.toFixed(3)} ms, ${f.ratio!.toFixed(2)}× (goal ${f.goal}: ${f.met ? "met" : "not met"})`);
    printFigures("request-overhead", figures);
  } finally {
    await client.stop();
    bare?.close();
    await platform.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
