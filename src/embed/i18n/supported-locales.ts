/** The shipped UI locales (decisions.md "Locales"); the locale matcher loads apart from the code that imports this. */
export const SUPPORTED_LOCALES = ["en-US", "de-DE", "es-ES", "es-MX", "fr-FR", "it-IT", "ja-JP", "nb-NO", "pt-BR", "pt-PT", "sv-SE", "vi-VN"] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: SupportedLocale = "en-US";

/** True when `value` is exactly one of the supported locale codes. */
export function isSupportedLocale(value: unknown): value is SupportedLocale {
  return typeof value === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}
