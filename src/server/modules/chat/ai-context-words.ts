/**
 * The sentence an answer opens with when the host page gave it a context (docs/ai.md "AI
 * context from the host"), in the builtin engine's languages: what the answer is restricted
 * to, and that the viewer's own access still applies beneath it.
 */
import type { AppliedChatContext } from "../../../schema/chat";
import { widgetLanguage } from "./ai-widget-words";

interface ContextWords {
  /** `title` (may be empty), the filters in words (may be empty), the views' titles (may be empty). */
  note: (title: string, filters: string, views: string) => string;
  /** "a or b" of a list of values. */
  or: string;
}

const quoted = (title: string) => (title ? ` „${title}“` : "");

export const CONTEXT_WORDS: Record<"en" | "de" | "es", ContextWords> = {
  en: {
    note: (title, filters, views) =>
      `_Answered for this page's context${title ? ` “${title}”` : ""}${filters ? `: ${filters}` : ""}${views ? `; views: ${views}` : ""}. Within your own access only._\n\n`,
    or: " or ",
  },
  de: {
    note: (title, filters, views) =>
      `_Beantwortet für den Kontext dieser Seite${quoted(title)}${filters ? `: ${filters}` : ""}${views ? `; Sichten: ${views}` : ""}. Nur innerhalb Ihrer eigenen Berechtigungen._\n\n`,
    or: " oder ",
  },
  es: {
    note: (title, filters, views) =>
      `_Respondido para el contexto de esta página${title ? ` «${title}»` : ""}${filters ? `: ${filters}` : ""}${views ? `; vistas: ${views}` : ""}. Solo dentro de su propio acceso._\n\n`,
    or: " o ",
  },
};

const SIGNS: Record<string, string> = {
  not_equals: "≠ ",
  greater_than: "> ",
  greater_than_or_equal: "≥ ",
  less_than: "< ",
  less_than_or_equal: "≤ ",
  contains: "∋ ",
  not_contains: "∌ ",
  starts_with: "",
  not_starts_with: "≠ ",
  ends_with: "…",
  not_ends_with: "≠ …",
  is_null: "∅",
  is_not_null: "≠ ∅",
  is_empty: "∅",
  is_not_empty: "≠ ∅",
};

/** The opening sentence of an answer under a context, with member titles and values as the viewer reads them. */
export function contextNote(
  locale: string,
  applied: AppliedChatContext,
  opts: {
    memberTitle: (member: string) => string;
    valueLabel?: (member: string, value: unknown) => string | undefined;
    viewTitle: (view: string) => string;
    restrictsViews: boolean;
  },
): string {
  const words = CONTEXT_WORDS[widgetLanguage(locale)];
  const filters = applied.filters
    .map((f) => {
      const values = f.value === undefined ? [] : Array.isArray(f.value) ? f.value : [f.value];
      const shown = values.map((v) => opts.valueLabel?.(f.member, v) ?? String(v));
      const operator = f.operator ?? "equals";
      const text = operator === "between" ? shown.join(" – ") : (SIGNS[operator] ?? "") + shown.join(words.or) + (operator === "starts_with" ? "…" : "");
      return `${opts.memberTitle(f.member)}: ${text}`;
    })
    .join(" · ");
  const views = opts.restrictsViews ? applied.views.map(opts.viewTitle).join(", ") : "";
  return words.note(applied.title ?? "", filters, views);
}
