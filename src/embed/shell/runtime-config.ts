/**
 * Runtime configuration the platform inlines into index.html for every /embed/* path
 * (`<script id="svc-embed-config" type="application/json">`). Read once at start-up.
 * Checked by hand rather than with a schema library: this runs before anything else and
 * stays out of the start-up bundle's weight.
 */

import { EMBED_CONFIG_ELEMENT_ID } from "../../schema/embed-runtime";

export { EMBED_CONFIG_ELEMENT_ID };

export interface EmbedRuntimeConfig {
  /** Host origins that may frame the embed and receive its events; never `*`. */
  allowedOrigins: string[];
}

const DEFAULT_CONFIG: EmbedRuntimeConfig = { allowedOrigins: [] };

/** Validates parsed JSON; unusable fields fall back to their defaults. */
export function parseEmbedRuntimeConfig(value: unknown): EmbedRuntimeConfig {
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ...DEFAULT_CONFIG };
  const raw = value as { allowedOrigins?: unknown };
  const allowedOrigins = Array.isArray(raw.allowedOrigins)
    ? raw.allowedOrigins.filter((o): o is string => typeof o === "string" && o !== "*" && o.length <= 2048)
    : [];
  return { allowedOrigins };
}

/**
 * Reads the inlined configuration. A missing or broken element (the dev server, a stale
 * cache) yields the defaults: no host origin is trusted.
 */
export function readEmbedRuntimeConfig(doc: Pick<Document, "getElementById">): EmbedRuntimeConfig {
  const text = doc.getElementById(EMBED_CONFIG_ELEMENT_ID)?.textContent ?? "";
  try {
    return parseEmbedRuntimeConfig(JSON.parse(text));
  } catch {
    return { ...DEFAULT_CONFIG };
  }
}
