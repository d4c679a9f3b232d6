/**
 * Loading a surface's main resource with the fatal-error rules of the embed: private mode
 * without a login shows the login form, an invalid session, a refusal or a missing resource
 * ends the surface with a fatal `error` event and a finished error screen.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { ApiError, errorNameOf, isAbortError } from "./api";
import { useEmbedServices, useEmbedSession } from "./embed-context";
import { ErrorScreen, LoadingScreen, LoginScreen } from "./screens";

export type SurfaceLoad<T> =
  | { status: "loading" }
  | { status: "ready"; data: T }
  | { status: "login" }
  | { status: "fatal"; name: string; message: string; retryable: boolean };

/** Loads `loader` once per `key` (and per reload); failures become fatal states. */
export function useSurfaceLoad<T>(key: string, loader: (signal: AbortSignal) => Promise<T>): [SurfaceLoad<T>, () => void] {
  const { bridge } = useEmbedServices();
  const { auth } = useEmbedSession();
  const [state, setState] = useState<SurfaceLoad<T>>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const loaderRef = useRef(loader);
  loaderRef.current = loader;

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: "loading" });
    loaderRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: "ready", data });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        if (error instanceof ApiError && error.status === 401 && auth.mode === "private") {
          setState({ status: "login" });
          return;
        }
        const name = errorNameOf(error, "RenderFailed");
        const message = error instanceof Error ? error.message : String(error);
        bridge.emitError({ name, message, fatal: true, context: "surface" });
        setState({ status: "fatal", name, message, retryable: name === "NetworkError" || name === "RenderFailed" || name === "QueryFailed" });
      },
    );
    return () => controller.abort();
  }, [key, attempt, auth, bridge]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return [state, reload];
}

/** The screen for a non-ready load state. */
export function SurfaceLoadScreen(props: { state: SurfaceLoad<unknown>; onReload: () => void }) {
  const locale = useEmbedStore((s) => s.locale);
  const { state } = props;
  if (state.status === "loading") return <LoadingScreen />;
  if (state.status === "login") return <LoginScreen onSignedIn={props.onReload} />;
  if (state.status !== "fatal") return null;
  const friendly =
    state.name === "Forbidden"
      ? t(locale, "forbidden")
      : state.name === "NotFound"
        ? t(locale, "notFound")
        : state.name === "SessionExpired"
          ? t(locale, "session.expired")
          : state.name === "SessionInvalid"
            ? t(locale, "session.invalidHint")
            : state.message;
  return (
    <ErrorScreen
      name={state.name}
      message={friendly}
      action={
        state.retryable ? (
          <button type="button" className="svc-button" onClick={props.onReload}>
            {t(locale, "retry")}
          </button>
        ) : null
      }
    />
  );
}
