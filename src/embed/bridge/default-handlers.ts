/**
 * Default action handlers: each applies one host action to the embed store and says whether
 * it was applied, ignored (valid but nothing to apply it to) or rejected (unusable value).
 */
import { ACTION_TYPES, type SvcActionPayloads, type SvcActionType } from "../../protocol";
import { isIanaTimeZone, parseFilterParameter } from "../../schema/dashboard-filters";
import { loadLocaleMatching } from "../i18n/locales";
import type { EmbedStore } from "../state/embed-store";
import { sanitizeEmbedTheme } from "../theme/embed-theme";
import type { ActionOutcome } from "./types";

type DefaultHandlers = {
  [T in SvcActionType]?: (payload: SvcActionPayloads[T]) => ActionOutcome | Promise<ActionOutcome>;
};

/** True for an in-embed path: absolute, not protocol-relative, no scheme, no control characters. */
export function isInEmbedPath(path: string): boolean {
  // Control characters are exactly what this refuses.
  // eslint-disable-next-line no-control-regex
  return path.startsWith("/") && !path.startsWith("//") && !/[\\\u0000-\u001f]/.test(path);
}

export function createDefaultActionHandlers(store: EmbedStore): DefaultHandlers {
  return {
    [ACTION_TYPES.setColorScheme]: ({ scheme }) => {
      store.getState().setColorScheme(scheme);
      return { status: "applied" };
    },
    [ACTION_TYPES.setTheme]: (payload) => {
      const { theme, rejected } = sanitizeEmbedTheme(payload);
      store.getState().setTheme(theme);
      return rejected.length === 0 ? { status: "applied" } : { status: "applied", reason: `ignored-fields:${rejected.join(",")}` };
    },
    [ACTION_TYPES.setLocale]: async ({ locale }) => {
      const { matchSupportedLocale } = await loadLocaleMatching();
      const matched = matchSupportedLocale(locale);
      if (!matched) return { status: "ignored", reason: "unsupported-locale" };
      store.getState().setLocale(matched);
      return { status: "applied" };
    },
    [ACTION_TYPES.setTimezone]: ({ timezone }) => {
      if (!isIanaTimeZone(timezone)) return { status: "rejected", reason: "invalid-timezone" };
      store.getState().setTimezone(timezone);
      return { status: "applied" };
    },
    [ACTION_TYPES.setFilter]: ({ filterUrlParameter }) => {
      const parsed = parseFilterParameter(filterUrlParameter);
      if (!parsed.ok) return { status: "rejected", reason: parsed.reason };
      if (!store.getState().hasFilterControl(parsed.member)) return { status: "ignored", reason: "no-filter-control" };
      store.getState().setFilter(parsed.member, parsed.filter);
      return { status: "applied" };
    },
    [ACTION_TYPES.navigate]: ({ path }) => {
      if (!isInEmbedPath(path)) return { status: "rejected", reason: "invalid-path" };
      store.getState().navigate(path);
      return { status: "applied" };
    },
    [ACTION_TYPES.refresh]: () => {
      store.getState().refresh();
      return { status: "applied" };
    },
  };
}
