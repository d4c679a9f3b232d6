/**
 * Matching a requested locale (from `set-locale`, the URL or the session) to a supported one,
 * with the BCP 47 lookup algorithm of @formatjs/intl-localematcher. Loaded on demand
 * (`loadLocaleMatching` in ./locales) so the library stays out of the start-up bundle.
 */
import { match } from "@formatjs/intl-localematcher";
import { DEFAULT_LOCALE, isSupportedLocale, SUPPORTED_LOCALES, type SupportedLocale } from "./supported-locales";

const NO_MATCH = "und";

/**
 * Language-only tags the lookup can fall back to, each mapped to the first supported locale
 * of that language (`es` and `es-AR` → `es-ES`, `pt` → `pt-BR`). `no` is the macrolanguage
 * tag many systems still send for Norwegian Bokmål.
 */
const LANGUAGE_FALLBACKS: Record<string, SupportedLocale> = (() => {
  const fallbacks: Record<string, SupportedLocale> = {};
  for (const locale of SUPPORTED_LOCALES) {
    const language = locale.split("-")[0]!;
    fallbacks[language] ??= locale;
  }
  fallbacks.no ??= "nb-NO";
  return fallbacks;
})();

const AVAILABLE = [...SUPPORTED_LOCALES, ...Object.keys(LANGUAGE_FALLBACKS)];

/**
 * Matches a requested locale (full code, short code or regional variant, any case, `_` or
 * `-`). Returns null when nothing matches or the tag is not a valid locale; callers then keep
 * the current locale and report the request as ignored.
 */
export function matchSupportedLocale(requested: string): SupportedLocale | null {
  if (typeof requested !== "string") return null;
  const tag = requested.trim().replace(/_/g, "-");
  if (tag.length === 0 || tag.length > 100) return null;
  let matched: string;
  try {
    matched = match([tag], AVAILABLE, NO_MATCH, { algorithm: "lookup" });
  } catch {
    return null;
  }
  if (isSupportedLocale(matched)) return matched;
  return LANGUAGE_FALLBACKS[matched] ?? null;
}

/**
 * Picks the locale by precedence (runtime action > URL > session > account > default); each
 * candidate that does not match is skipped.
 */
export function resolveLocale(candidates: ReadonlyArray<string | null | undefined>): SupportedLocale {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const matched = matchSupportedLocale(candidate);
    if (matched) return matched;
  }
  return DEFAULT_LOCALE;
}
