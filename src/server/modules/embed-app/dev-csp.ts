/**
 * The Content-Security-Policy of an embed page under the dev server (`npm run dev`): the
 * production policy plus what Vite's client needs, and nothing more (docs/development.md):
 *
 * - script-src: the page's nonce, for the inline module script the dev server writes into the
 *   page (React Refresh's preamble); every other script is a module from the page's own origin.
 * - style-src: the same nonce, for the `<style>` elements the client adds for imported CSS.
 * - connect-src: `ws://` (or `wss://`) on the page's own origin, the hot-reload WebSocket.
 *
 * A directive the policy does not have restricts nothing and stays absent; one the policy
 * leaves to default-src is written out as default-src's sources plus the allowance. A
 * directive that already allows every inline script or style ('unsafe-inline', no nonce or
 * hash) keeps its form, since a nonce beside 'unsafe-inline' would switch 'unsafe-inline' off.
 */
export function devServerCsp(csp: string, page: { nonce: string; origin: string }): string {
  const directives = csp
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .filter((tokens) => tokens[0]);
  const find = (name: string) => directives.find((tokens) => tokens[0]!.toLowerCase() === name);
  const defaults = find("default-src");
  const allow = (name: string, source: string, unlessInline: boolean) => {
    let directive = find(name);
    if (!directive) {
      if (!defaults) return;
      directive = [name, ...defaults.slice(1)];
      directives.push(directive);
    }
    const sources = directive.slice(1);
    const inlineAllowed = sources.includes("'unsafe-inline'") && !sources.some((s) => /^'(nonce|sha256|sha384|sha512)-/.test(s));
    if (unlessInline && inlineAllowed) return;
    directive.splice(1, directive.length, ...sources.filter((s) => s !== "'none'"), source);
  };
  const nonce = `'nonce-${page.nonce}'`;
  const ws = page.origin.replace(/^http/, "ws");
  allow("script-src", nonce, true);
  allow("style-src", nonce, true);
  allow("connect-src", ws, false);
  return directives.map((tokens) => tokens.join(" ")).join("; ");
}
