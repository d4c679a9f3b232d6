/**
 * Runtime configuration the platform inlines into the embed app's index.html for every
 * /embed/* path, as `<script id="svc-embed-config" type="application/json">`.
 */
export const EMBED_CONFIG_ELEMENT_ID = "svc-embed-config";
