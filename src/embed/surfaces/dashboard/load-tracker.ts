/**
 * When the dashboard has loaded: every visible widget (top-level widgets and the widgets of
 * each tab container's first tab) has rendered or failed. Fires once.
 */
import type { DashboardWidget } from "../../../schema/dashboard";
import { tabsOf } from "../../widgets/tabs-container/tabs-config";

export type SettledStatus = "ready" | "error";

/** Ids of the widgets shown at load; a tab container is a frame, its first tab's widgets count. */
export function visibleWidgetIds(widgets: readonly DashboardWidget[]): string[] {
  const ids: string[] = [];
  for (const widget of widgets) {
    if (widget.type === "TABS_CONTAINER") {
      const first = tabsOf(widget)[0];
      if (first) ids.push(...visibleWidgetIds(first.widgets));
    } else {
      ids.push(widget.id);
    }
  }
  return ids;
}

export interface LoadTracker {
  /** Records that a widget rendered or failed; later reports of the same widget don't count twice. */
  settle(widgetId: string, status: SettledStatus): void;
  readonly done: boolean;
}

export function createLoadTracker(expected: readonly string[], onLoaded: (summary: { widgetCount: number; failed: number }) => void): LoadTracker {
  const pending = new Set(expected);
  let failed = 0;
  let done = false;
  const check = () => {
    if (!done && pending.size === 0) {
      done = true;
      onLoaded({ widgetCount: expected.length, failed });
    }
  };
  // Nothing to wait for (an empty dashboard): loaded as soon as it is checked.
  queueMicrotask(check);
  return {
    settle(widgetId, status) {
      if (!pending.delete(widgetId)) return;
      if (status === "error") failed += 1;
      check();
    },
    get done() {
      return done;
    },
  };
}
