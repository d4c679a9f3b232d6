/**
 * What happens between fetching a dashboard and showing it: session settings fill in what
 * the URL left open (runtime action > URL > session settings > default), the dashboard's
 * filter controls are registered, and URL filters without a control are dropped.
 */
import type { Dashboard } from "../../schema/dashboard";
import { isIanaTimeZone, type EmbedUrlParameters } from "../../schema/dashboard-filters";
import type { EmbedViewer } from "../shell/platform-api";
import { loadLocaleMatching } from "../i18n/locales";
import type { EmbedStore } from "../state/embed-store";
import { sanitizeEmbedTheme } from "../theme";
import { filterConfigOf } from "../widgets/filter/filter-config";
import { allWidgets } from "../widgets/tabs-container/tabs-config";

/** Members the dashboard has FILTER controls for, nested tabs included. */
export function filterControlMembers(dashboard: Dashboard): string[] {
  const members = new Set<string>();
  for (const widget of allWidgets(dashboard.config.widgets ?? [])) {
    if (widget.type !== "FILTER") continue;
    const config = filterConfigOf(widget);
    if (config) members.add(config.member);
  }
  return [...members];
}

/** What the host set at run time before the dashboard arrived. */
export interface RuntimeChoices {
  /** A `set-locale` was applied: the session's locale must not replace it. */
  localeChosen?: boolean;
}

export function applyDashboardSetup(store: EmbedStore, dashboard: Dashboard, viewer: EmbedViewer, url: EmbedUrlParameters, chosen: RuntimeChoices = {}): void {
  const state = store.getState();
  const settings = viewer.settings ?? {};
  if (!url.locale && !chosen.localeChosen && settings.locale) {
    const requested = settings.locale;
    const before = state.locale;
    void loadLocaleMatching().then(({ matchSupportedLocale }) => {
      const locale = matchSupportedLocale(requested);
      // A `set-locale` while the matcher loaded wins too.
      if (locale && store.getState().locale === before) store.getState().setLocale(locale);
    });
  }
  // The store's zone starts as the URL's; anything else there came from `set-timezone`.
  if (!state.timezone && settings.timezone && isIanaTimeZone(settings.timezone)) state.setTimezone(settings.timezone);
  if (viewer.embedTheme && Object.keys(state.theme).length === 0) state.setTheme(sanitizeEmbedTheme(viewer.embedTheme).theme);

  const members = filterControlMembers(dashboard);
  state.registerFilterControls(members);
  const filters = store.getState().filters;
  const kept = Object.fromEntries(Object.entries(filters).filter(([member]) => members.includes(member)));
  if (Object.keys(kept).length !== Object.keys(filters).length) state.replaceFilters(kept);
}

const setUpResponses = new WeakSet<object>();

/**
 * Sets the store up for a fetched dashboard once per response: the data loader does it as
 * soon as the dashboard arrives, the surface for a response it fetched itself (a reload).
 */
export function applyDashboardSetupOnce(
  store: EmbedStore,
  data: { dashboard: Dashboard; viewer: EmbedViewer },
  url: EmbedUrlParameters,
  chosen: RuntimeChoices = {},
): void {
  if (setUpResponses.has(data)) return;
  setUpResponses.add(data);
  applyDashboardSetup(store, data.dashboard, data.viewer, url, chosen);
}
