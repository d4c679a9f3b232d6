/**
 * Supported UI locales (decisions.md "Locales") and matching of a requested locale (from
 * `set-locale`, the URL or the session) to one of them.
 */
export const SUPPORTED_LOCALES = ["en-US", "de-DE", "es-ES", "es-MX", "fr-FR", "it-IT", "ja-JP", "nb-NO", "pt-BR", "pt-PT", "sv-SE", "vi-VN"] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: SupportedLocale = "en-US";

/** True when `value` is exactly one of the supported locale codes. */
export function isSupportedLocale(value: unknown): value is SupportedLocale {
  return typeof value === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

let matching: Promise<typeof import("./locale-matching")> | null = null;

/**
 * The locale matcher (./locale-matching, on @formatjs/intl-localematcher), loaded once on
 * first use; start-up code begins loading it early so it is there when needed.
 */
export function loadLocaleMatching(): Promise<typeof import("./locale-matching")> {
  matching ??= import("./locale-matching");
  return matching;
}
