/**
 * Supported UI locales (decisions.md "Locales") and matching of a requested locale (from
 * `set-locale`, the URL or the session) to one of them.
 */
export const SUPPORTED_LOCALES = [
  "en-US",
  "de-DE",
  "es-ES",
  "es-MX",
  "fr-FR",
  "it-IT",
  "ja-JP",
  "nb-NO",
  "pt-BR",
  "pt-PT",
  "sv-SE",
  "vi-VN",
] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: SupportedLocale = "en-US";

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

/** Supported locales and language fallbacks by lower-case tag. */
const AVAILABLE = new Map<string, SupportedLocale>([
  ...Object.entries(LANGUAGE_FALLBACKS),
  ...SUPPORTED_LOCALES.map((locale) => [locale.toLowerCase(), locale] as [string, SupportedLocale]),
]);

/** True when `value` is exactly one of the supported locale codes. */
export function isSupportedLocale(value: unknown): value is SupportedLocale {
  return typeof value === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/**
 * Matches a requested locale (full code, short code or regional variant, any case, `_` or
 * `-`) to a supported locale with the BCP 47 lookup algorithm (written out here rather than
 * taken from a locale-matching library: it is a few lines, and this runs in the start-up bundle). Returns null when nothing
 * matches or the tag is not a valid locale; callers then keep the current locale and report
 * the request as ignored.
 */
export function matchSupportedLocale(requested: string): SupportedLocale | null {
  if (typeof requested !== "string") return null;
  const tag = requested.trim().replace(/_/g, "-");
  if (tag.length === 0 || tag.length > 100) return null;
  let canonical: string;
  try {
    // Throws for anything that is not a well-formed BCP 47 tag.
    canonical = Intl.getCanonicalLocales(tag)[0] ?? "";
  } catch {
    return null;
  }
  // RFC 4647 lookup: extensions (`-u-…`, `-x-…`) never select a locale; then drop subtags
  // from the end until a supported locale or a language fallback matches.
  const subtags = canonical.toLowerCase().split("-");
  const extension = subtags.findIndex((part, i) => i > 0 && part.length === 1);
  const parts = extension < 0 ? subtags : subtags.slice(0, extension);
  for (let length = parts.length; length > 0; length--) {
    const matched = AVAILABLE.get(parts.slice(0, length).join("-"));
    if (matched) return matched;
  }
  return null;
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
