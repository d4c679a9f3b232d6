/**
 * Markdown of TEXT widgets to safe HTML: marked renders, DOMPurify keeps only inert markup
 * (no scripts, handlers, forms or frames); links open outside the embed without an opener.
 * Both libraries load on first use.
 */
export async function renderMarkdown(markdown: string): Promise<string> {
  const [{ marked }, { default: DOMPurify }] = await Promise.all([import("marked"), import("dompurify")]);
  const html = await marked.parse(markdown, { gfm: true, breaks: false, async: true });
  const purify = DOMPurify(window);
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    }
  });
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
    FORBID_ATTR: ["style"],
  });
}
