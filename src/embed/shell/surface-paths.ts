/** Route paths of the surfaces (below the /embed basename), in one place. */
import type { Surface } from "../../protocol";

export const EMBED_BASENAME = "/embed";

export const SURFACE_ROUTES = {
  dashboard: "dashboard/:publicId",
  app: "d/:deploymentId/app/*",
  chat: "chat",
  report: "report/:publicId",
  /** The report surface by the report's id in a deployment (signed mode's form). */
  deploymentReport: "d/:deploymentId/report/:reportId",
} as const;

/** Which surface a browser path (with or without the basename) belongs to. */
export function surfaceOfPath(pathname: string): Surface {
  const path = pathname.startsWith(EMBED_BASENAME) ? pathname.slice(EMBED_BASENAME.length) : pathname;
  if (/^\/d\/[^/]+\/app(?:\/|$)/.test(path)) return "app";
  if (/^\/chat(?:\/|$)/.test(path)) return "chat";
  if (/^\/(?:report\/[^/]+|d\/[^/]+\/report\/[^/]+)\/?$/.test(path)) return "report";
  return "dashboard";
}

/** The in-embed path (without the basename) of a browser path. */
export function inEmbedPath(pathname: string): string {
  const path = pathname.startsWith(EMBED_BASENAME) ? pathname.slice(EMBED_BASENAME.length) : pathname;
  return path === "" ? "/" : path;
}
