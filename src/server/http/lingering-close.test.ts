import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../app";
import { loadConfig } from "../config";
import { silentLogger } from "../logger";
import { startPlatform, type RunningPlatform } from "../platform";
import { KEEP_ALIVE_MS } from "./lingering-close";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  reusedSocket: boolean;
}

/**
 * A too-large body over a real socket, with a keep-alive client: the 413 must always be read
 * (never a reset instead), and the client's next request must succeed, on a new connection when
 * the server closed the old one.
 */
describe("a refused body on a kept-alive connection", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-413-"));
  const adminToken = "svc_" + "k".repeat(40);
  let platform: RunningPlatform;
  let agent: http.Agent;

  beforeAll(async () => {
    const config = loadConfig({ SVC_DATA_DIR: dir, SVC_DEMO: "off", SVC_ADMIN_TOKEN: adminToken, SVC_DEMO_HOST_PORT: "0" });
    platform = await startPlatform({ ...config, PORT: 0, HOST: "127.0.0.1" }, silentLogger);
  });
  afterAll(async () => {
    agent?.destroy();
    await platform?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  function send(opts: { method?: string; path?: string; body?: Buffer; chunked?: { chunkBytes: number; everyMs: number; maxBytes: number } }) {
    return new Promise<Answer>((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
      const target = { host: "127.0.0.1", port: platform.port, method: opts.method ?? "POST", path: opts.path ?? "/api/v1/users/", agent, headers };
      const req = http.request(target, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body, reusedSocket: req.reusedSocket }));
      });
      req.on("error", reject);
      if (opts.body) req.end(opts.body);
      else if (opts.chunked) {
        // A body that keeps arriving until the answer comes (or maxBytes), like an upload in progress.
        const { chunkBytes, everyMs, maxBytes } = opts.chunked;
        let sent = 0;
        let answered = false;
        req.on("response", () => (answered = true));
        const timer = setInterval(() => {
          if (answered || sent >= maxBytes || req.destroyed) {
            clearInterval(timer);
            if (!req.destroyed) req.end();
            return;
          }
          req.write(Buffer.alloc(chunkBytes, 0x20));
          sent += chunkBytes;
        }, everyMs);
      } else req.end();
    });
  }

  const me = () => send({ method: "GET", path: "/api/v1/auth/me" });

  it("keeps connections alive between ordinary requests", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await me()).status).toBe(200);
    const second = await me();
    expect(second.status).toBe(200);
    expect(second.reusedSocket).toBe(true);
    expect(second.headers.connection).toBe("keep-alive");
  });

  it("keeps an idle connection open past a client's usual idle time, so its next request is answered on it", async () => {
    const idle = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const previous = agent;
    agent = idle;
    try {
      const first = await me();
      expect(first.status).toBe(200);
      expect(first.headers["keep-alive"]).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
      // Node's default closed an idle connection after 5 s.
      await new Promise((r) => setTimeout(r, 6_000));
      const later = await me();
      expect(later.status).toBe(200);
      expect(later.reusedSocket).toBe(true);
    } finally {
      agent = previous;
      idle.destroy();
    }
  });

  it("answers a declared Content-Length over the limit with 413 and Connection: close; the next request succeeds", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await me()).status).toBe(200);
    const refused = await send({ body: Buffer.alloc(2 * MAX_BODY_BYTES, 0x20) });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "payload_too_large" });
    expect(refused.headers.connection).toBe("close");
    const next = await me();
    expect(next.status).toBe(200);
    expect(next.reusedSocket).toBe(false);
  });

  it("answers a chunked body that keeps arriving with 413 once past the limit; the next request succeeds", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await send({ chunked: { chunkBytes: 64 * 1024, everyMs: 5, maxBytes: 16 * MAX_BODY_BYTES } });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "payload_too_large" });
    expect(refused.headers.connection).toBe("close");
    const next = await me();
    expect(next.status).toBe(200);
  });

  it("reads the 413 even when the client sends a large body without waiting for an answer", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 3; i++) {
      const refused = await send({ body: Buffer.alloc(8 * MAX_BODY_BYTES, 0x20) });
      expect(refused.status).toBe(413);
      expect((await me()).status).toBe(200);
    }
  });

  it("keeps reading after the 413, so a client that reads its answer late still gets it (no reset)", async () => {
    // A raw client that declares 64 MiB and keeps sending for a while without reading: had the
    // server closed at once, its next bytes would meet a reset and the 413 would be lost.
    const attempt = () =>
      new Promise<string>((resolve) => {
        const socket = net.connect(platform.port, "127.0.0.1");
        let got = "";
        socket.on("error", (e: NodeJS.ErrnoException) => resolve(`error ${e.code} after ${got.length} bytes`));
        socket.on("data", (d: Buffer) => (got += d.toString("latin1")));
        socket.on("end", () => resolve(got.split("\r\n")[0]!));
        socket.on("connect", () => {
          const head = ["POST /api/v1/users/ HTTP/1.1", "Host: x", `Authorization: Bearer ${adminToken}`, "Content-Type: application/json"];
          socket.write([...head, `Content-Length: ${64 * MAX_BODY_BYTES}`, "", ""].join("\r\n"));
          socket.pause();
          let writes = 0;
          const timer = setInterval(() => {
            if (socket.destroyed || writes++ >= 30) {
              clearInterval(timer);
              socket.resume();
              return;
            }
            socket.write(Buffer.alloc(256 * 1024, 0x20));
          }, 20);
        });
      });
    for (let i = 0; i < 3; i++) expect(await attempt()).toBe("HTTP/1.1 413 Payload Too Large");
  });

  it("closes the connection when a request is answered before its body was read", async () => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    // Refused before the body is read: the answer cannot promise the connection a next request.
    const res = await new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: platform.port,
          method: "POST",
          path: "/api/v1/users/",
          agent,
          headers: { authorization: "Bearer nope", "content-type": "application/json", "content-length": String(768 * 1024) },
        },
        (r) => {
          let body = "";
          r.on("data", (d) => (body += d));
          r.on("end", () => resolve({ status: r.statusCode!, headers: r.headers, body, reusedSocket: req.reusedSocket }));
        },
      );
      req.on("error", reject);
      req.write(Buffer.alloc(512 * 1024, 0x20));
      setTimeout(() => req.end(Buffer.alloc(256 * 1024, 0x20)), 100);
    });
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe("close");
    expect((await me()).status).toBe(200);
  });
});
