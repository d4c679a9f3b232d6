/**
 * The embed's authentication, outside React: it starts at boot (beside the download of the
 * app's code), keeps the signed session's lifetime (`session-expiring`, the host's
 * `set-session`, the fatal `SessionExpired`) and sends a signed embed's `ready` the moment the
 * token is exchanged. The shell renders from its state.
 */
import { ACTION_TYPES, EVENT_TYPES, type Surface } from "../../protocol";
import type { EmbedBridge } from "../bridge";
import { errorNameOf, type EmbedApi } from "./api";
import { exchangeSession, startEmbedAuth, type EmbedAuth } from "./session";
import { scheduleSessionTimers } from "./session-lifecycle";
import { parseEmbedUrlParameters } from "../../schema/dashboard-filters";

export type AuthState =
  { status: "pending" } | { status: "ready"; auth: EmbedAuth } | { status: "failed"; name: string; message: string } | { status: "expired" };

export interface AuthController {
  getState(): AuthState;
  /** Calls `listener` after every change; returns a function that stops it. */
  subscribe(listener: () => void): () => void;
  /** Resolves with the first authentication (rejects when it failed). */
  readonly first: Promise<EmbedAuth>;
}

export interface AuthControllerOptions {
  api: EmbedApi;
  bridge: EmbedBridge;
  surface: Surface;
  location: Location;
  history: History;
  /** Holder of the exchange index.html started (the window). */
  win?: object;
}

/** The dashboard's public id of an embed path (`/embed/dashboard/{publicId}`), if it is one. */
export function dashboardPublicIdOf(pathname: string): string | undefined {
  return /^\/embed\/dashboard\/([^/]+)\/?$/.exec(pathname)?.[1];
}

/** The report's public id of a report surface path (`/embed/report/{publicId}`), if it is one. */
export function reportPublicIdOf(pathname: string): string | undefined {
  return /^\/embed\/report\/([^/]+)\/?$/.exec(pathname)?.[1];
}

export function startAuthController(options: AuthControllerOptions): AuthController {
  const { api, bridge } = options;
  let state: AuthState = { status: "pending" };
  const listeners = new Set<() => void>();
  const set = (next: AuthState) => {
    state = next;
    for (const listener of [...listeners]) listener();
  };
  // The path before the session parameter leaves the URL (it is the same path after).
  const publicId =
    options.surface === "dashboard"
      ? dashboardPublicIdOf(options.location.pathname)
      : options.surface === "report"
        ? reportPublicIdOf(options.location.pathname)
        : undefined;
  // `allowExport=true` turns the export controls on within the session's grant (pinned at load).
  const urlAllowsExport = parseEmbedUrlParameters(new URLSearchParams(options.location.search)).allowExport;

  const first = startEmbedAuth(api, options.location, options.history, options.win);
  first.then(
    (auth) => {
      set({ status: "ready", auth });
      if (auth.mode !== "signed") return;
      keepSignedSession(auth.expiresAt);
      // Authenticated, the bridge answers every action, the document shows the surface's
      // first frame: `ready` (spec 6.2). Private mode has no exchange to confirm the login;
      // there the surface sends it once its first request has succeeded.
      bridge.emit(EVENT_TYPES.ready, {
        embedTenant: auth.embedTenant,
        deploymentId: auth.deploymentId,
        mode: "signed",
        ...(publicId ? { publicId } : {}),
        // The URL only narrows the grant (no zod on the boot path: the grant came parsed by the server).
        exportFormats: urlAllowsExport ? auth.exportFormats : [],
      });
    },
    (error: unknown) => {
      const name = errorNameOf(error, "SessionInvalid");
      const message = error instanceof Error ? error.message : String(error);
      bridge.emitError({ name, message, fatal: true, context: "session" });
      set({ status: "failed", name, message });
    },
  );
  // The failure is the state's to show; nobody has to catch it.
  first.catch(() => undefined);

  let cancelTimers: () => void = () => undefined;
  function keepSignedSession(expiresAt: number | null) {
    cancelTimers();
    cancelTimers = scheduleSessionTimers(expiresAt, {
      onExpiring: (at, secondsLeft) => bridge.emit(EVENT_TYPES.sessionExpiring, { expiresAt: at, secondsLeft }),
      onExpired: () => {
        bridge.emitError({ name: "SessionExpired", message: "The embed session has expired", fatal: true, context: "session" });
        api.setToken(null);
        set({ status: "expired" });
      },
    });
  }

  // The host's session swap (signed mode), in place before `ready` lists the capabilities. An
  // expired session is over: the surface has ended, nothing is swapped into it.
  if (api.mode === "signed")
    bridge.handle(ACTION_TYPES.setSession, async ({ sessionId }) => {
      if (state.status !== "ready") return { status: "ignored", reason: "not-supported" };
      try {
        const next = await exchangeSession(api, sessionId);
        keepSignedSession(next.expiresAt);
        set({ status: "ready", auth: next });
        return { status: "applied" };
      } catch {
        return { status: "rejected", reason: "session-invalid" };
      }
    });

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    first,
  };
}
