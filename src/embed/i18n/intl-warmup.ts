/**
 * Starts the Intl warm-up worker (intl-warmup-worker.ts) and hands it each locale the embed
 * uses, so the page's first formatters find the engine's data loaded.
 */
let worker: Worker | null = null;

export function warmIntl(locale: string): void {
  if (typeof Worker === "undefined") return;
  try {
    worker ??= new Worker(new URL("./intl-warmup-worker.ts", import.meta.url), { type: "module", name: "svc-intl" });
    worker.postMessage({ locale });
  } catch {
    worker = null;
  }
}
