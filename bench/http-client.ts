/**
 * An HTTP client in a worker thread, for the benches that time the server: a real client runs
 * apart from the server, so each request is timed in the worker (from the call to the parsed
 * JSON) and the server's event loop is the server's alone. One request at a time.
 */
import { isMainThread, parentPort, Worker } from "node:worker_threads";

export interface ClientRequest {
  method: string;
  url: string;
  /** A bearer token, or none. */
  token?: string;
  body?: unknown;
}

export interface ClientReply {
  status: number;
  json: unknown;
  ms: number;
}

export interface BenchClient {
  send(request: ClientRequest): Promise<ClientReply>;
  stop(): Promise<number>;
}

export function startClient(): BenchClient {
  // The worker runs this file, as TypeScript: it registers tsx before importing it.
  const boot = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(boot, { eval: true });
  let pending: ((reply: ClientReply) => void) | null = null;
  worker.on("message", (reply: ClientReply) => pending?.(reply));
  worker.on("error", (e) => {
    console.error(e);
    process.exit(1);
  });
  return {
    send(request) {
      return new Promise((resolve) => {
        pending = resolve;
        worker.postMessage(request);
      });
    },
    stop: () => worker.terminate(),
  };
}

function serveRequests() {
  parentPort!.on("message", async (request: ClientRequest) => {
    const started = performance.now();
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (request.token) headers.authorization = `Bearer ${request.token}`;
    const res = await fetch(request.url, {
      method: request.method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const json: unknown = await res.json();
    parentPort!.postMessage({ status: res.status, json, ms: performance.now() - started } satisfies ClientReply);
  });
}

if (!isMainThread && parentPort) serveRequests();
