/**
 * The root of every surface: shows how authentication went (the boot's auth controller,
 * src/embed/shell/auth-controller.ts, which also sends a signed embed's `ready`), keeps the
 * router and the store's `path` in step (host `navigate` ↔ in-embed navigation), reports
 * navigations and content size, then renders the surface.
 */
import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { Outlet, useLocation, useNavigate } from "react-router";
import { EVENT_TYPES } from "../../protocol";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { EmbedSessionContext, useEmbedServices, type EmbedSessionState } from "./embed-context";
import { ErrorScreen, LoadingScreen } from "../ui/screens";
import "./embed-shell.css";

export function EmbedShell() {
  const services = useEmbedServices();
  const { bridge, store } = services;
  const locale = useEmbedStore((s) => s.locale);
  const authState = useSyncExternalStore(services.auth.subscribe, services.auth.getState);
  const contentRef = useRef<HTMLDivElement>(null);
  const auth = authState.status === "ready" ? authState.auth : null;

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

/** Router ↔ store `path`, and `navigate` events for in-embed route changes. */
function RouteReporter() {
  const { bridge, store } = useEmbedServices();
  const location = useLocation();
  const navigate = useNavigate();
  const previous = useRef<string | null>(null);

  useEffect(() => {
    const path = location.pathname;
    if (previous.current === null && store.getState().path !== path) {
      // A host `navigate` applied before the router was mounted (`ready` goes out first): it wins.
      previous.current = path;
      navigate(store.getState().path);
      return;
    }
    if (previous.current !== null && previous.current !== path) {
      bridge.emit(EVENT_TYPES.navigate, { path, previousPath: previous.current });
    }
    previous.current = path;
    if (store.getState().path !== path) store.getState().navigate(path);
  }, [location.pathname, bridge, store, navigate]);

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
