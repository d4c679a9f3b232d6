/**
 * The dashboard editor's undo/redo history: a zustand store per open dashboard holding the past
 * drafts, the current one and the undone ones. Bounded (the oldest step is dropped past the
 * limit); edits made under the same `group` in quick succession (one widget's settings) are
 * one step, and so is typing into one field until the focus leaves it (`typing`, then `seal`),
 * however slowly: an undo takes back what was typed, not a letter.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { DashboardConfig } from "../../../schema/dashboard";

/** Steps kept to undo. */
export const HISTORY_LIMIT = 100;
/** Edits of one group closer together than this are merged into one step. */
export const GROUP_WINDOW_MS = 1000;

export interface ChangeOptions {
  /** Edits of the same group within GROUP_WINDOW_MS of each other are one step. */
  group?: string;
  /** Typed into a field: merged with the group's last typed edit whatever the pause, until `seal`. */
  typing?: boolean;
}

export interface DashboardHistory {
  past: DashboardConfig[];
  now: DashboardConfig;
  future: DashboardConfig[];
  /** Bumped by every change, undo and redo (what autosave watches). */
  version: number;
  lastGroup: string | null;
  lastAt: number;
  /** The last edit was typed (ChangeOptions.typing); it counts only while its group is open (`lastGroup`). */
  lastTyping: boolean;
  change(fn: (c: DashboardConfig) => DashboardConfig, options?: ChangeOptions): void;
  /** Ends the open step (the focus left the field typed into): the next edit is a step of its own. */
  seal(): void;
  undo(): void;
  redo(): void;
}

export type DashboardHistoryStore = StoreApi<DashboardHistory>;

export function createDashboardHistory(initial: DashboardConfig, options: { limit?: number; clock?: () => number } = {}): DashboardHistoryStore {
  const limit = options.limit ?? HISTORY_LIMIT;
  const clock = options.clock ?? Date.now;
  return createStore<DashboardHistory>()((set) => ({
    past: [],
    now: initial,
    future: [],
    version: 0,
    lastGroup: null,
    lastAt: 0,
    lastTyping: false,
    change: (fn, opts) =>
      set((h) => {
        const next = fn(h.now);
        if (next === h.now) return h;
        const at = clock();
        const group = opts?.group ?? null;
        const typing = opts?.typing === true;
        const merge = group !== null && group === h.lastGroup && h.past.length > 0 && (at - h.lastAt < GROUP_WINDOW_MS || (typing && h.lastTyping));
        const past = merge ? h.past : [...h.past, h.now].slice(-limit);
        return { past, now: next, future: [], version: h.version + 1, lastGroup: group, lastAt: at, lastTyping: typing };
      }),
    seal: () => set((h) => (h.lastGroup === null ? h : { lastGroup: null })),
    undo: () =>
      set((h) => {
        const previous = h.past[h.past.length - 1];
        if (!previous) return h;
        return { past: h.past.slice(0, -1), now: previous, future: [h.now, ...h.future], version: h.version + 1, lastGroup: null };
      }),
    redo: () =>
      set((h) => {
        const next = h.future[0];
        if (!next) return h;
        return { past: [...h.past, h.now].slice(-limit), now: next, future: h.future.slice(1), version: h.version + 1, lastGroup: null };
      }),
  }));
}

/** Ctrl/Cmd+Z undoes; Shift+Ctrl/Cmd+Z and Ctrl+Y redo. Null for any other key. */
export function historyKey(e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "shiftKey" | "altKey">): "undo" | "redo" | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (key === "z") return e.shiftKey ? "redo" : "undo";
  if (key === "y" && !e.shiftKey) return "redo";
  return null;
}
