/**
 * The root of every surface: authenticates once (session exchange or platform cookie), keeps
 * the router and the store's `path` in step (host `navigate` ↔ in-embed navigation), reports
 * navigations, content size and the token lifetime, then renders the surface. In signed mode
 * `ready` goes out from here as soon as the token is exchanged and the shell has mounted: it
 * needs nothing from the surface's data (spec 6.2), which loads after it.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { matchPath, Outlet, useLocation, useNavigate } from "react-router";
import { ACTION_TYPES, EVENT_TYPES } from "../../protocol";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { errorNameOf } from "./api";
import { EmbedSessionContext, useEmbedServices, type EmbedSessionState } from "./embed-context";
import { ErrorScreen, LoadingScreen } from "../ui/screens";
import { exchangeSession, startEmbedAuth, type EmbedAuth } from "./session";
import { scheduleSessionTimers } from "./session-lifecycle";
import { SURFACE_ROUTES } from "./surface-paths";
import "./embed-shell.css";

type AuthState = { status: "pending" } | { status: "ready"; auth: EmbedAuth } | { status: "failed"; name: string; message: string } | { status: "expired" };

// Authentication runs once per page: StrictMode's double effects and remounts reuse it, and
// a session id is single use anyway.
let authPromise: Promise<EmbedAuth> | null = null;

export function EmbedShell() {
  const services = useEmbedServices();
  const { api, bridge, store } = services;
  const locale = useEmbedStore((s) => s.locale);
  const [authState, setAuthState] = useState<AuthState>({ status: "pending" });
  const contentRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    authPromise ??= startEmbedAuth(api, window.location, window.history);
    let cancelled = false;
    authPromise.then(
      (auth) => !cancelled && setAuthState({ status: "ready", auth }),
      (error: unknown) => {
        if (cancelled) return;
        const name = errorNameOf(error, "SessionInvalid");
        const message = error instanceof Error ? error.message : String(error);
        bridge.emitError({ name, message, fatal: true, context: "session" });
        setAuthState({ status: "failed", name, message });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [api, bridge]);

  // Token lifetime and the host's session swap (signed mode only). A layout effect, so the
  // `set-session` handler is in place before `ready` (a child's passive effect) lists the
  // capabilities.
  const auth = authState.status === "ready" ? authState.auth : null;
  useLayoutEffect(() => {
    if (!auth || auth.mode !== "signed") return;
    const cancelTimers = scheduleSessionTimers(auth.expiresAt, {
      onExpiring: (expiresAt, secondsLeft) => bridge.emit(EVENT_TYPES.sessionExpiring, { expiresAt, secondsLeft }),
      onExpired: () => {
        bridge.emitError({ name: "SessionExpired", message: "The embed session has expired", fatal: true, context: "session" });
        api.setToken(null);
        setAuthState({ status: "expired" });
      },
    });
    const removeHandler = bridge.handle(ACTION_TYPES.setSession, async ({ sessionId }) => {
      try {
        const next = await exchangeSession(api, sessionId);
        setAuthState({ status: "ready", auth: next });
        return { status: "applied" };
      } catch {
        return { status: "rejected", reason: "session-invalid" };
      }
    });
    return () => {
      cancelTimers();
      removeHandler();
    };
  }, [auth, api, bridge]);

  useEffect(() => {
    const element = contentRef.current;
    if (!element) return;
    return bridge.observeContentSize(element);
  }, [bridge]);

  const session = useMemo<EmbedSessionState | null>(() => (auth ? { auth } : null), [auth]);

  let body;
  if (authState.status === "pending") body = <LoadingScreen />;
  else if (authState.status === "failed")
    body = <ErrorScreen name={authState.name} message={authState.name === "SessionInvalid" ? t(locale, "session.invalidHint") : authState.message} />;
  else if (authState.status === "expired") body = <ErrorScreen name="SessionExpired" message={t(locale, "session.expired")} />;
  else
    body = (
      <EmbedSessionContext.Provider value={session}>
        {auth?.mode === "signed" ? <SignedReadyReporter auth={auth} /> : null}
        <RouteReporter />
        <Outlet />
      </EmbedSessionContext.Provider>
    );

  return (
    <div className="svc-content" ref={contentRef} data-surface={services.surface} data-store-ready={store ? "true" : "false"}>
      {body}
    </div>
  );
}

/**
 * `ready` of a signed embed: authenticated (the token exchange's embedTenant and deploymentId)
 * and mounted. Once per page: a session swapped in by `set-session` is no new start (the
 * bridge also never sends a second `ready`). Private mode has no exchange to confirm the
 * login, so there the surface sends `ready` once its first request has succeeded.
 */
function SignedReadyReporter(props: { auth: Extract<EmbedAuth, { mode: "signed" }> }) {
  const { bridge, surface } = useEmbedServices();
  const location = useLocation();
  const sent = useRef(false);
  const { auth } = props;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const publicId = surface === "dashboard" ? matchPath("/" + SURFACE_ROUTES.dashboard, location.pathname)?.params.publicId : undefined;
    bridge.emit(EVENT_TYPES.ready, {
      embedTenant: auth.embedTenant,
      deploymentId: auth.deploymentId,
      mode: "signed",
      ...(publicId ? { publicId } : {}),
    });
  }, [bridge, surface, auth, location.pathname]);
  return null;
}

/** Router ↔ store `path`, and `navigate` events for in-embed route changes. */
function RouteReporter() {
  const { bridge, store } = useEmbedServices();
  const location = useLocation();
  const navigate = useNavigate();
  const previous = useRef<string | null>(null);

  useEffect(() => {
    const path = location.pathname;
    if (previous.current !== null && previous.current !== path) {
      bridge.emit(EVENT_TYPES.navigate, { path, previousPath: previous.current });
    }
    previous.current = path;
    if (store.getState().path !== path) store.getState().navigate(path);
  }, [location.pathname, bridge, store]);

  useEffect(
    () =>
      store.subscribe((state, prior) => {
        if (state.path !== prior.path && state.path !== window.location.pathname.replace(/^\/embed/, "")) {
          navigate(state.path);
        }
      }),
    [store, navigate],
  );
  return null;
}
