import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions } from "node:http";
import type { Socket } from "node:net";

/** How long a connection closed after an unread body keeps reading (and discarding) what still arrives. */
export const LINGER_MS = 2_000;
/** How much it reads at most before giving up on the client. */
export const LINGER_BYTES = 16 * 1024 * 1024;

const lingering = new WeakSet<Socket>();

/**
 * Closes a connection whose request body was not read to the end without losing the answer.
 * Closing a socket while the client is still sending makes the kernel answer the next bytes
 * with a reset, and a reset can throw away the answer before the client has read it (a 413
 * that the client never sees). So (RFC 9112 §9.6): send FIN after the answer, keep reading and
 * discarding the rest of the body, and close for good when the client closes its side, after
 * LINGER_BYTES, or after LINGER_MS.
 */
export function lingeringClose(socket: Socket, req: IncomingMessage): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.once("end", () => socket.destroy());
  // The body is read through the request, so the HTTP parser keeps its framing. Whoever was
  // reading it (the app's body stream, paused once it stopped reading) lets go; the bytes are dropped.
  req.removeAllListeners("data");
  let read = 0;
  req.on("data", (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) socket.destroy();
  });
  req.resume();
  socket.end();
}

/**
 * How long an idle kept-alive connection stays open: longer than the idle time of the clients and
 * proxies in front (a load balancer's 60 s; undici's and Playwright's pools reuse a socket idle for
 * seconds). Node's own 5 s let a client send its next request on a socket the server was closing
 * at that moment, and a busy server answered it with a reset (ECONNRESET) instead of an answer.
 */
export const KEEP_ALIVE_MS = 65_000;

/**
 * A node:http server for a request listener (@hono/node-server's `getRequestListener`), except that when it closes a
 * connection while the request on it still has body to come (a body refused unread: the answer
 * then says `Connection: close`), it closes by `lingeringClose` instead of at once.
 */
export function createLingeringServer(options: ServerOptions, listener: RequestListener): Server {
  const current = new WeakMap<Socket, IncomingMessage>();
  const server = createServer(options, (req, res) => {
    current.set(req.socket, req);
    listener(req, res);
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.on("connection", (socket: Socket) => {
    const destroySoon = socket.destroySoon.bind(socket);
    // Node closes a connection after a `Connection: close` answer with destroySoon (so does
    // @hono/node-server when it gives up draining a body): the one place to linger instead.
    socket.destroySoon = () => {
      const req = current.get(socket);
      if (req && !req.complete) lingeringClose(socket, req);
      else destroySoon();
    };
  });
  return server;
}
