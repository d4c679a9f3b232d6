/**
 * Loads the engine's Intl data off the page's thread. The first Intl formatter of a kind (a
 * relative-time format, a currency, the time zone) costs tens of ms while the engine reads its
 * data; that data is shared by the whole renderer, so building the formatters here first makes
 * the page's own first ones nearly free. Each message names a locale to warm; the worker ends
 * itself after a quiet while.
 */
/// <reference lib="webworker" />
// This file runs as a dedicated worker: its `self` is the worker's scope, not a window.
declare const self: DedicatedWorkerGlobalScope;
const scope = self;
const warmed = new Set<string>();
let quiet: ReturnType<typeof setTimeout> | undefined;

function warm(locale: string) {
  if (warmed.has(locale)) return;
  warmed.add(locale);
  try {
    new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).resolvedOptions();
    new Intl.DateTimeFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" }).format(0);
    new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(-1, "year");
    new Intl.NumberFormat(locale, { style: "currency", currency: "USD" }).format(1);
    new Intl.NumberFormat(locale, { style: "percent" }).format(0.5);
    new Intl.PluralRules(locale).select(2);
    new Intl.Collator(locale, { numeric: true }).compare("a", "b");
  } catch {
    // An unknown locale warms nothing; the page falls back as it always does.
  }
}

scope.onmessage = (event: MessageEvent<{ locale?: unknown }>) => {
  if (typeof event.data?.locale === "string" && event.data.locale.length < 40) warm(event.data.locale);
  clearTimeout(quiet);
  quiet = setTimeout(() => scope.close(), 10_000);
};

// A module, so that its `self` above is its own.
export {};
