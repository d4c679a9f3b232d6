/**
 * The creator-mode app's in-embed paths (decisions.md "Creator mode"): parsed by the app surface
 * and by the start-up bridge, which refuses `navigate` to anything else on the app surface.
 */

/** The in-embed paths of decisions.md "Creator mode". */
export type AppRoute =
  | { kind: "home" }
  | { kind: "folder"; folderId: number }
  | { kind: "workbook"; workbookId: number }
  | { kind: "report"; workbookId: number; reportId: number }
  | { kind: "dashboard"; workbookId: number }
  | { kind: "published"; workbookId: number }
  | { kind: "chat"; threadId: string | null };

const ID = "([1-9][0-9]{0,9})";
const PATTERNS: [RegExp, (m: RegExpExecArray) => AppRoute][] = [
  [/^$/, () => ({ kind: "home" })],
  [new RegExp(`^/folders/${ID}$`), (m) => ({ kind: "folder", folderId: Number(m[1]) })],
  [new RegExp(`^/workbooks/${ID}$`), (m) => ({ kind: "workbook", workbookId: Number(m[1]) })],
  [new RegExp(`^/workbooks/${ID}/reports/${ID}$`), (m) => ({ kind: "report", workbookId: Number(m[1]), reportId: Number(m[2]) })],
  [new RegExp(`^/workbooks/${ID}/dashboard$`), (m) => ({ kind: "dashboard", workbookId: Number(m[1]) })],
  [new RegExp(`^/workbooks/${ID}/dashboard/published$`), (m) => ({ kind: "published", workbookId: Number(m[1]) })],
  [/^\/chat$/, () => ({ kind: "chat", threadId: null })],
  [/^\/chat\/([A-Za-z0-9_-]{1,128})$/, (m) => ({ kind: "chat", threadId: m[1]! })],
];

/** The app route of an in-embed path (`/d/{id}/app/...`), or null when it is none of this deployment's app paths. */
export function parseAppPath(path: string, deploymentId: number): AppRoute | null {
  const prefix = `/d/${deploymentId}/app`;
  if (!path.startsWith(prefix)) return null;
  const rest = path.slice(prefix.length).replace(/\/$/, "");
  for (const [re, make] of PATTERNS) {
    const m = re.exec(rest);
    if (m) return make(m);
  }
  return null;
}

export function appPath(deploymentId: number, route: AppRoute): string {
  const prefix = `/d/${deploymentId}/app`;
  switch (route.kind) {
    case "home":
      return prefix;
    case "folder":
      return `${prefix}/folders/${route.folderId}`;
    case "workbook":
      return `${prefix}/workbooks/${route.workbookId}`;
    case "report":
      return `${prefix}/workbooks/${route.workbookId}/reports/${route.reportId}`;
    case "dashboard":
      return `${prefix}/workbooks/${route.workbookId}/dashboard`;
    case "published":
      return `${prefix}/workbooks/${route.workbookId}/dashboard/published`;
    case "chat":
      return route.threadId ? `${prefix}/chat/${route.threadId}` : `${prefix}/chat`;
  }
}
