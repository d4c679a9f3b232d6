/**
 * Loading a surface's main resource (through the typed client's React hooks) with the
 * fatal-error rules of the embed: private mode without a login shows the login form, an
 * invalid session, a refusal or a missing resource ends the surface with a fatal `error`
 * event and a finished error screen.
 */
import { useCallback, useEffect, useMemo, useRef } from "react";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { ApiError, apiError, errorNameOf } from "./api";
import { useEmbedServices, useEmbedSession } from "./embed-context";
import { ErrorScreen, LoadingScreen } from "../ui/screens";
import { LoginScreen } from "./login-screen";
import "../ui/buttons.css";

export type SurfaceLoad<T> =
  | { status: "loading" }
  | { status: "ready"; data: T }
  | { status: "login" }
  | { status: "fatal"; name: string; message: string; retryable: boolean };

/** What `useSurfaceQuery` needs of a data hook's result (TanStack Query's `UseQueryResult`). */
export interface SurfaceQueryResult<T> {
  status: "pending" | "error" | "success";
  data: T | undefined;
  error: unknown;
  refetch: () => unknown;
}

/**
 * Maps a surface's main data hook (`useSvcPlatformApiQuery`) to the embed's load states:
 * a 401 in private mode shows the login form; any other failure is fatal once, with the
 * `error` event. `invalid` (a bad route parameter) fails without asking the platform.
 */
export function useSurfaceQuery<T>(query: SurfaceQueryResult<T>, invalid: { message: string } | null = null): [SurfaceLoad<T>, () => void] {
  const { bridge } = useEmbedServices();
  const { auth } = useEmbedSession();
  const invalidMessage = invalid?.message ?? null;
  const invalidError = useMemo(() => (invalidMessage === null ? null : apiError(404, "not_found", invalidMessage)), [invalidMessage]);
  const failure = invalidError ?? (query.status === "error" ? query.error : null);

  let state: SurfaceLoad<T>;
  if (failure) {
    if (failure instanceof ApiError && failure.status === 401 && auth.mode === "private") state = { status: "login" };
    else {
      const name = errorNameOf(failure, "RenderFailed");
      const message = failure instanceof Error ? failure.message : String(failure);
      state = { status: "fatal", name, message, retryable: name === "NetworkError" || name === "RenderFailed" || name === "QueryFailed" };
    }
  } else if (query.status === "success" && query.data !== undefined) state = { status: "ready", data: query.data };
  else state = { status: "loading" };

  // One fatal `error` event per failure, not per render.
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (state.status !== "fatal" || reported.current === failure) return;
    reported.current = failure;
    bridge.emitError({ name: state.name, message: state.message, fatal: true, context: "surface" });
  });

  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
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
