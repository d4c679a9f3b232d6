/**
 * Runs a widget's request whenever its key changes, cancelling the superseded one, through
 * the widget state machine. `retry()` runs the same request again.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { errorNameOf, isAbortError } from "../../shell/api";
import { widgetCommitPacer } from "./paced-commits";
import { initialWidgetQueryState, widgetQueryReducer, type WidgetQueryState } from "./query-state";

let nextRequestId = 1;

export function useWidgetQuery<T>(
  /** Identity of the request: a new key runs a new request. Null runs nothing. */
  key: string | null,
  run: (signal: AbortSignal) => Promise<T>,
  onError?: (error: { name: string; message: string }) => void,
): WidgetQueryState<T> & { retry: () => void } {
  const [state, dispatch] = useReducer(widgetQueryReducer<T>, undefined, () => initialWidgetQueryState<T>());
  const [attempt, setAttempt] = useState(0);
  const runRef = useRef(run);
  runRef.current = run;
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const requestId = nextRequestId++;
    dispatch({ type: "start", requestId });
    // Results are committed a few per frame (paced-commits.ts): many arriving at once make no long task.
    runRef.current(controller.signal).then(
      (data) =>
        widgetCommitPacer.pace(() => {
          if (!controller.signal.aborted) dispatch({ type: "success", requestId, data });
        }),
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        const failure = { name: errorNameOf(error, "QueryFailed"), message: error instanceof Error ? error.message : String(error) };
        widgetCommitPacer.pace(() => {
          if (controller.signal.aborted) return;
          dispatch({ type: "failure", requestId, error: failure });
          onErrorRef.current?.(failure);
        });
      },
    );
    return () => controller.abort();
  }, [key, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
