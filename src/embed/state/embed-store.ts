/**
 * Runtime state of an embed surface: what host actions and URL parameters change and what
 * the surface renders from. A vanilla zustand store so the bridge can update it without
 * React; React components read it through `useEmbedStore`.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ColorScheme, EmbedTheme } from "../../protocol";
import type { DashboardFilter, TimeGranularity } from "../../schema/dashboard-filters";
import { DEFAULT_LOCALE, type SupportedLocale } from "../i18n/locales";
import type { ResolvedColorScheme } from "../theme/color-scheme";

export type { ResolvedColorScheme } from "../theme/color-scheme";

export interface EmbedStateValues {
  /** What was asked for; `auto` follows the OS. Default `light`: dark never turns on unasked. */
  colorScheme: ColorScheme;
  /** What is shown now. */
  resolvedScheme: ResolvedColorScheme;
  theme: EmbedTheme;
  locale: SupportedLocale;
  /** IANA zone; null = the viewer's own zone. */
  timezone: string | null;
  /** Active filters by member. */
  filters: Record<string, DashboardFilter>;
  timeGrains: Record<string, TimeGranularity>;
  memberSwitches: Record<string, string>;
  /** Members the dashboard has a filter control for; `set-filter` only applies to these. */
  filterControls: string[];
  /** In-embed route path. */
  path: string;
  /** Bumped by `refresh`; queries include it in their keys and bypass caches when it changes. */
  refreshNonce: number;
}

export interface EmbedStateActions {
  setColorScheme(scheme: ColorScheme): void;
  setResolvedScheme(scheme: ResolvedColorScheme): void;
  setTheme(theme: EmbedTheme): void;
  setLocale(locale: SupportedLocale): void;
  setTimezone(timezone: string | null): void;
  /** Sets (or with null clears) the filter of one member. */
  setFilter(member: string, filter: DashboardFilter | null): void;
  /** Replaces all filters. */
  replaceFilters(filters: Record<string, DashboardFilter>): void;
  clearFilters(): void;
  setTimeGrain(member: string, granularity: TimeGranularity | null): void;
  setMemberSwitch(member: string, selected: string | null): void;
  /** Adds members the dashboard now has controls for. */
  registerFilterControls(members: readonly string[]): void;
  unregisterFilterControls(members: readonly string[]): void;
  hasFilterControl(member: string): boolean;
  navigate(path: string): void;
  refresh(): void;
}

export type EmbedState = EmbedStateValues & EmbedStateActions;
export type EmbedStore = StoreApi<EmbedState>;

export const DEFAULT_EMBED_STATE: EmbedStateValues = {
  colorScheme: "light",
  resolvedScheme: "light",
  theme: {},
  locale: DEFAULT_LOCALE,
  timezone: null,
  filters: {},
  timeGrains: {},
  memberSwitches: {},
  filterControls: [],
  path: "/",
  refreshNonce: 0,
};

function withKey<V>(map: Record<string, V>, key: string, value: V | null): Record<string, V> {
  const next = { ...map };
  if (value === null) delete next[key];
  else next[key] = value;
  return next;
}

/** Creates the store; `initial` typically comes from URL parameters and session settings. */
export function createEmbedStore(initial: Partial<EmbedStateValues> = {}): EmbedStore {
  return createStore<EmbedState>()((set, get) => ({
    ...DEFAULT_EMBED_STATE,
    ...initial,
    setColorScheme: (colorScheme) => set({ colorScheme }),
    setResolvedScheme: (resolvedScheme) => set({ resolvedScheme }),
    setTheme: (theme) => set({ theme }),
    setLocale: (locale) => set({ locale }),
    setTimezone: (timezone) => set({ timezone }),
    setFilter: (member, filter) => set((s) => ({ filters: withKey(s.filters, member, filter) })),
    replaceFilters: (filters) => set({ filters: { ...filters } }),
    clearFilters: () => set({ filters: {} }),
    setTimeGrain: (member, granularity) => set((s) => ({ timeGrains: withKey(s.timeGrains, member, granularity) })),
    setMemberSwitch: (member, selected) => set((s) => ({ memberSwitches: withKey(s.memberSwitches, member, selected) })),
    registerFilterControls: (members) =>
      set((s) => {
        const added = members.filter((m) => !s.filterControls.includes(m));
        return added.length === 0 ? s : { filterControls: [...s.filterControls, ...added] };
      }),
    unregisterFilterControls: (members) => set((s) => ({ filterControls: s.filterControls.filter((m) => !members.includes(m)) })),
    hasFilterControl: (member) => get().filterControls.includes(member),
    navigate: (path) => set({ path }),
    refresh: () => set((s) => ({ refreshNonce: s.refreshNonce + 1 })),
  }));
}
