/**
 * Markdown of TEXT widgets to safe HTML: marked renders, DOMPurify keeps only inert markup
 * (no scripts, handlers, forms or frames); links open outside the embed without an opener.
 * Both libraries load on first use, and the sanitiser is configured once for the page.
 */
export type MarkdownRenderer = (markdown: string) => string;

let loading: Promise<MarkdownRenderer> | null = null;

/** The page's markdown renderer, once its libraries have loaded. */
export function loadMarkdownRenderer(): Promise<MarkdownRenderer> {
  loading ??= Promise.all([import("marked"), import("dompurify")]).then(([{ marked }, { default: DOMPurify }]) => {
    const purify = DOMPurify(window);
    purify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer");
      }
    });
    purify.setConfig({
      USE_PROFILES: { html: true },
      FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
      FORBID_ATTR: ["style"],
    });
    return (markdown: string) => purify.sanitize(marked.parse(markdown, { gfm: true, breaks: false, async: false }));
  });
  loading.catch(() => (loading = null));
  return loading;
}

export async function renderMarkdown(markdown: string): Promise<string> {
  return (await loadMarkdownRenderer())(markdown);
}
