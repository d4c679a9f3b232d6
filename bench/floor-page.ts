/**
 * The floor of time to ready: a framework-free page that does what the embed must do before
 * it posts `ready` and nothing else. For a signed dashboard that is (src/embed/shell, index.html):
 * read `session` from the URL, drop it from the address bar, `POST /api/v1/embed/session/token`
 * (credentials omitted, JSON body, exactly as the inline script of index.html), then post
 * `svc:event:ready` to the host with the exchange's `embedTenant` and `deploymentId`. The
 * dashboard definition and the surface's chunk load after `ready`, so the floor fetches
 * nothing more.
 *
 * Served by the same platform server: the bench writes the page, for the length of the run,
 * into the directory the platform already serves the embed's built assets from
 * (`dist/embed/assets`, served at `/embed/assets/*`), under a name of its own, and removes it
 * at the end. No route is added to the product; `dist/` is build output, not in git. The
 * page is therefore same-origin with the API (no CORS preflight, same connection pool as the
 * embed). Differences from the embed's own HTML response, all in the floor's favour: the
 * embed's index.html is answered after reading the allowed host origins from the database
 * (the floor has the host origin written in), and the assets route sends an immutable cache
 * header (each load carries a fresh session id, so every URL is new and never cached).
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { EVENT_TYPES, isSvcEvent, SVC_SOURCE, type ReadyPayload } from "../src/protocol";

export interface FloorPage {
  /** The floor page's URL for a signed session id. */
  src(sessionId: string): string;
  remove(): void;
}

/**
 * The floor page's HTML. `template` is a `ready` payload the embed really sent (surface,
 * protocol version, capabilities, publicId): the floor posts the same shape with the
 * exchange's own embedTenant and deploymentId.
 */
export function floorPageHtml(hostOrigin: string, template: ReadyPayload): string {
  const constants = JSON.stringify({ source: SVC_SOURCE, type: EVENT_TYPES.ready, hostOrigin, template }).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en-US">
  <head>
    <meta charset="UTF-8" />
    <title>svc floor</title>
    <script>
      (function () {
        var c = ${constants};
        var id = (new URLSearchParams(location.search).get("session") || "").trim();
        history.replaceState(history.state, "", location.pathname);
        fetch("/api/v1/embed/session/token", {
          method: "POST",
          credentials: "omit",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ sessionId: id }),
        })
          .then(function (r) {
            if (!r.ok) throw new Error("session exchange answered " + r.status);
            return r.json();
          })
          .then(function (t) {
            var payload = Object.assign({}, c.template, { embedTenant: t.embedTenant == null ? null : t.embedTenant, deploymentId: t.deploymentId, mode: "signed" });
            parent.postMessage({ source: c.source, direction: "event", type: c.type, payload: payload, timestamp: Date.now(), surface: payload.surface }, c.hostOrigin);
          });
      })();
    </script>
  </head>
  <body></body>
</html>
`;
}

/** Writes the floor page into the platform's served embed assets; `remove()` deletes it. */
export function installFloorPage(platformUrl: string, hostOrigin: string, template: ReadyPayload): FloorPage {
  const probe = { source: SVC_SOURCE, direction: "event", type: EVENT_TYPES.ready, payload: template, timestamp: 0, surface: template.surface };
  if (!isSvcEvent(probe)) throw new Error("the ready payload template is not a valid svc event");
  const name = `bench-floor-${process.pid}.html`;
  const file = path.join("dist", "embed", "assets", name);
  writeFileSync(file, floorPageHtml(hostOrigin, template));
  return {
    src: (sessionId) => `${platformUrl}/embed/assets/${name}?session=${encodeURIComponent(sessionId)}`,
    remove: () => rmSync(file, { force: true }),
  };
}
