/**
 * Origin policy of the embed side: which host origins may receive events and send actions.
 * The list comes from the account setting (decisions.md "Allowed host origins"); it never
 * contains "*", and an empty list means nobody.
 */

/**
 * Normalises an origin or URL to its serialised origin (`scheme://host[:port]`, default port
 * dropped, lower-case host, no path or trailing slash). Returns null for anything that is not
 * an http(s) origin, including the opaque origin "null".
 */
export function normalizeOrigin(value: string): string | null {
  if (typeof value !== "string" || value.trim() === "" || value.trim() === "null") return null;
  try {
    const url = new URL(value.trim());
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    if (url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * Normalises the allow-list. A wildcard is a configuration error and throws, so it cannot
 * silently turn into "post to anyone"; other unusable entries are dropped.
 */
export function normalizeAllowedOrigins(origins: readonly string[]): ReadonlySet<string> {
  const allowed = new Set<string>();
  for (const entry of origins) {
    if (entry.includes("*")) throw new TypeError(`allowed host origins may not contain wildcards: ${entry}`);
    const origin = normalizeOrigin(entry);
    if (origin) allowed.add(origin);
  }
  return allowed;
}

/** What origin detection needs from the embed's window. */
export interface FramedWindow {
  readonly parent: unknown;
  readonly location: { readonly ancestorOrigins?: ArrayLike<string> | null };
  readonly document: { readonly referrer: string };
}

/**
 * The origin of the page that frames the embed, when it is allowed: the browser-reported
 * `location.ancestorOrigins[0]`, else the origin of `document.referrer` (browsers without
 * ancestorOrigins). Null when the embed is not framed, the origin cannot be determined, or it
 * is not on the allow-list.
 */
export function resolveHostOrigin(window: FramedWindow, allowed: ReadonlySet<string>): string | null {
  if (window.parent === window || window.parent === null || window.parent === undefined) return null;
  const ancestors = window.location.ancestorOrigins;
  const candidate = ancestors && ancestors.length > 0 ? ancestors[0]! : window.document.referrer;
  if (!candidate) return null;
  const origin = normalizeOrigin(candidate);
  return origin !== null && allowed.has(origin) ? origin : null;
}
