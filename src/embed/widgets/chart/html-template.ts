/**
 * HTML reports: `{{member}}` placeholders filled from the first result row, and `{{title:member}}`
 * with the member's title as the viewer reads it (translated by the deployment's dictionaries),
 * each HTML-escaped. The document runs in `<iframe sandbox="">`: no scripts, no same-origin
 * access to the embed, its token or its storage.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function fillHtmlTemplate(
  html: string,
  row: Record<string, unknown> | undefined,
  format: (member: string, value: unknown) => string,
  titleOf: (member: string) => string = (member) => member,
): string {
  return html.replace(/\{\{\s*(title:\s*)?([_a-zA-Z][\w]*(?:\.[_a-zA-Z][\w]*){1,2})\s*\}\}/g, (_whole, title: string | undefined, member: string) => {
    if (title) return escapeHtml(titleOf(member));
    const value = row?.[member];
    return escapeHtml(value === undefined ? "" : format(member, value));
  });
}

/**
 * A full document for srcdoc: the filled body, a strict CSP and base styles for the scheme.
 * The base styles also match `.svc-html-root`, the wrapper the image export draws it in.
 */
export function htmlReportDocument(body: string, options: { scheme: "light" | "dark"; font: string; text: string }): string {
  const csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}"><style>:root{color-scheme:${options.scheme}}html,body,.svc-html-root{margin:0;padding:0;background:transparent;color:${options.text.replace(/[<>;{}]/g, "")};font-family:${options.font.replace(/[<>;{}]/g, "")};font-size:14px;line-height:1.5}</style></head><body>${body}</body></html>`;
}
