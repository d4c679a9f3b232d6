/**
 * What `<svc-embed>` frames: the URL from its `src`, `session` and `locale` attributes, and the
 * origin it trusts, checked against each other before anything loads.
 */
import { normalizeTargetOrigin } from "./connect-svc-embed";

/** The attributes that decide the frame's URL. */
export interface SvcEmbedSource {
  src: string | null;
  origin: string | null;
  session: string | null;
  locale: string | null;
}

export type SvcEmbedTarget = { ok: true; url: string; origin: string } | { ok: false; reason: string };

/**
 * The URL to frame and the exact origin to trust. `src` is resolved against `baseUrl`; without an
 * `origin` attribute the origin is `src`'s own; with one, `src` must be on exactly that origin.
 * `session` and `locale` become the `session=` and `locale=` URL parameters (replacing any in `src`).
 */
export function resolveSvcEmbedTarget(source: SvcEmbedSource, baseUrl: string): SvcEmbedTarget {
  if (!source.src) return { ok: false, reason: "no src" };
  let url: URL;
  try {
    url = new URL(source.src, baseUrl);
  } catch {
    return { ok: false, reason: `src "${source.src}" is not a URL` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: `src "${source.src}" is not an http(s) URL` };
  let origin: string;
  try {
    origin = normalizeTargetOrigin(source.origin ?? url.origin);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (url.origin !== origin) return { ok: false, reason: `src is on ${url.origin}, not on the origin ${origin}` };
  if (source.session) url.searchParams.set("session", source.session);
  if (source.locale) url.searchParams.set("locale", source.locale);
  return { ok: true, url: url.toString(), origin };
}
