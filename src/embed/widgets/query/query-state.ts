/**
 * The state machine of one widget's data: idle → loading → ready | error, retry from error,
 * re-run from ready (keeping the previous data on screen while the new request runs).
 * Every request has an id; a result of a request that was superseded is ignored.
 */
export type WidgetStatus = "idle" | "loading" | "ready" | "error";

export interface WidgetQueryState<T> {
  status: WidgetStatus;
  /** Id of the request whose result is awaited (loading) or shown (ready/error). */
  requestId: number;
  data: T | null;
  error: { message: string; name: string } | null;
  /** True while a newer request runs behind data already shown. */
  refreshing: boolean;
}

export type WidgetQueryEvent<T> =
  | { type: "start"; requestId: number }
  | { type: "success"; requestId: number; data: T }
  | { type: "failure"; requestId: number; error: { message: string; name: string } };

export function initialWidgetQueryState<T>(): WidgetQueryState<T> {
  return { status: "idle", requestId: 0, data: null, error: null, refreshing: false };
}

export function widgetQueryReducer<T>(state: WidgetQueryState<T>, event: WidgetQueryEvent<T>): WidgetQueryState<T> {
  switch (event.type) {
    case "start":
      if (event.requestId <= state.requestId && state.status !== "idle") return state;
      return state.status === "ready"
        ? { ...state, requestId: event.requestId, refreshing: true }
        : { status: "loading", requestId: event.requestId, data: null, error: null, refreshing: false };
    case "success":
      if (event.requestId !== state.requestId) return state;
      return { status: "ready", requestId: event.requestId, data: event.data, error: null, refreshing: false };
    case "failure":
      if (event.requestId !== state.requestId) return state;
      return { status: "error", requestId: event.requestId, data: null, error: event.error, refreshing: false };
  }
}
