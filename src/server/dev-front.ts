import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";

/**
 * A development server in front of one of the platform's HTTP servers (`npm run dev`,
 * scripts/dev.ts): it answers its own requests (the app's modules from their sources, its
 * client, public files; its hot-reload WebSocket on the same server) and hands every other
 * request to the app. The server itself never imports the tool behind it.
 */
export interface DevFront {
  /** Answers the dev server's own requests; `next` hands the others to the app. */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void;
  /** The app's HTML page for `url`, as the dev server serves it from the source. */
  page(url: string): Promise<DevPage>;
  /** Closes the dev server and its WebSocket clients (the HTTP server closes only once they are gone). */
  close(): Promise<void>;
}

export interface DevPage {
  html: string;
  /**
   * A fresh nonce, carried by every script and style element the dev server wrote into the
   * page and by its `<meta property="csp-nonce">` (its client reads it for the styles it adds).
   */
  nonce: string;
}

/** What a dev server knows of the platform it stands in front of. */
export interface DevPlatform {
  /** SVC_DATA_DIR, resolved: never served (the master key, the embedded database). */
  dataDir: string;
  /** The platform's public URL: its host name is one browsers use. */
  publicUrl: string;
}

/** The dev servers `startPlatform` puts in front of its two HTTP servers. */
export interface DevServers {
  /** The embed app at /embed/* on the platform's server (its WebSocket at /embed/). */
  embed(server: Server, platform: DevPlatform): Promise<DevFront>;
  /** The demo host page on the demo host's server. */
  demoHost(server: Server, platform: DevPlatform): Promise<DevFront>;
}

/** `listener` behind `front`: the front's requests first, every other one to the app. */
export function behindFront(front: DevFront | null, listener: RequestListener): RequestListener {
  if (!front) return listener;
  return (req, res) => front.handle(req, res, () => void listener(req, res));
}
