/**
 * The rules `svc host-check` verifies on a host page, each with what it means and how to fix a
 * failure. docs/embedding.md's "Host checklist" is generated from this list
 * (`npx tsx scripts/host-checklist.ts`), so the docs and the check never differ.
 */
export const HOST_CHECK_RULES = [
  {
    id: "frames-found",
    title: "The page frames an svc surface",
    rule: "The page holds at least one iframe whose address is an svc embed path (`/embed/…`).",
    fix: "Frame `https://<platform>/embed/dashboard/<publicId>?session=<id>` (or `/embed/report/<publicId>`, `/embed/chat`, `/embed/d/<deploymentId>/app`).",
  },
  {
    id: "frame-allowed",
    title: "The platform lets this page frame it",
    rule: "The frame loads: the page's origin is on the deployment's allowed embed origins, so the platform's `frame-ancestors` admits it.",
    fix: "Add the page's origin (scheme, host and port, no path) to the deployment's allowed embed origins (`SVC_EMBED_ALLOWED_ORIGINS` or the deployment's settings).",
  },
  {
    id: "listens",
    title: "The page listens for the embed's messages",
    rule: "The page has a `message` listener when the frame posts `svc:event:ready` and `svc:event:view`.",
    fix: 'Add `window.addEventListener("message", …)` before setting the iframe\'s `src`, or use the host kit (`connectSvcEmbed` or `<svc-embed>`).',
  },
  {
    id: "resize",
    title: "The page sizes the frame from `svc:event:resize`",
    rule: "Once the embed settles, the frame is at least as tall as the content height of the last `svc:event:resize`, so the embed has no scroll bar of its own inside the page's.",
    fix: "On `svc:event:resize`, set the iframe's height to `payload.height` px (a minimum is fine; a fixed height is not).",
  },
  {
    id: "resize-settles",
    title: "Sizing the frame does not loop",
    rule: "`svc:event:resize` stops within a few seconds of the embed settling (fewer than 30 in 5 s).",
    fix: "Set the height only (not the width) from `payload.height`, and do not add padding that grows with each event.",
  },
  {
    id: "posts-to-platform-only",
    title: "The page posts only to the platform's origin",
    rule: "When the frame's document is replaced by a page of another origin that speaks the protocol, nothing the host posts reaches it: every `postMessage` names the platform's origin, never `\"*\"`.",
    fix: 'Call `iframe.contentWindow.postMessage(message, "https://<platform>")` with the platform\'s origin as the second argument.',
  },
  {
    id: "checks-origin",
    title: "The page ignores messages from other origins",
    rule: "A protocol message from another origin in the same frame (here a `svc:event:resize` of 1 777 px) changes nothing on the page.",
    fix: "In the listener, return at once unless `event.origin` is the platform's origin and `event.source` is the iframe's `contentWindow`.",
  },
  {
    id: "renews-session",
    title: "The page swaps the session when it is about to expire",
    rule: "On `svc:event:session-expiring` the page sends `svc:action:set-session` with a new session within 10 s, and the frame is not reloaded (filters and scroll stay).",
    fix: "On `svc:event:session-expiring`, ask your backend for a new session (`POST /api/v1/embed/generate-session`) and post `svc:action:set-session` `{ sessionId }`; do not reset the iframe's `src`.",
  },
  {
    id: "actions-applied",
    title: "Every action the page sends is applied",
    rule: "Each action that asked for a result (`requestId`) got `svc:event:action-result` with status `applied`.",
    fix: "Read the result's `reason` in the report: a payload of the wrong shape, an action the surface does not apply, or a filter the dashboard does not have.",
  },
] as const;

export type HostCheckRuleId = (typeof HOST_CHECK_RULES)[number]["id"];

/** The docs' "Host checklist": one numbered item per rule, with its fix. */
export function hostChecklistMarkdown(): string {
  return HOST_CHECK_RULES.map((r, i) => `${i + 1}. **${r.title}** (\`${r.id}\`). ${r.rule}\n   *Fix:* ${r.fix}`).join("\n");
}
