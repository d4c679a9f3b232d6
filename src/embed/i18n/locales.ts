/**
 * Supported UI locales (decisions.md "Locales") and matching of a requested locale (from
 * `set-locale`, the URL or the session) to one of them.
 */
import { SUPPORTED_LOCALES, DEFAULT_LOCALE, isSupportedLocale, type SupportedLocale } from "./supported-locales";

export { SUPPORTED_LOCALES, DEFAULT_LOCALE, isSupportedLocale, type SupportedLocale };

let matching: Promise<typeof import("./locale-matching")> | null = null;

/**
 * The locale matcher (./locale-matching, on @formatjs/intl-localematcher), loaded once on
 * first use; start-up code begins loading it early so it is there when needed.
 */
export function loadLocaleMatching(): Promise<typeof import("./locale-matching")> {
  matching ??= import("./locale-matching");
  return matching;
}
