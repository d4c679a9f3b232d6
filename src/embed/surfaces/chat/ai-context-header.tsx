/**
 * The host page's AI context in the chat header: its title, and its filters and views in words
 * (member and view titles as the data model has them for the viewer, the frame's words from the
 * chat catalogue), so the viewer sees what every answer is narrowed to.
 */
import { useStore } from "zustand";
import type { AppliedChatContext } from "../../../schema/chat";
import { aiContextStore } from "../../chat/ai-context";
import { chatText } from "../../chat/chat-messages";
import { formatNumber, type SupportedLocale } from "../../i18n";

interface Source {
  name: string;
  title?: string;
  dimensions?: { name: string; title?: string; shortTitle?: string }[];
}

const SIGNS: Record<string, string> = {
  not_equals: "≠ ",
  greater_than: "> ",
  greater_than_or_equal: "≥ ",
  less_than: "< ",
  less_than_or_equal: "≤ ",
  not_contains: "≠ …",
  contains: "…",
  not_starts_with: "≠ ",
  ends_with: "…",
  not_ends_with: "≠ …",
  is_null: "∅",
  is_empty: "∅",
  is_not_null: "≠ ∅",
  is_not_empty: "≠ ∅",
};

/** "Country: DE or FR · Status: ≠ cancelled · Views: Sales" */
export function aiContextInWords(locale: SupportedLocale, applied: AppliedChatContext, sources: readonly Source[]): string {
  const titles = new Map(sources.flatMap((s) => (s.dimensions ?? []).map((d) => [d.name, d.shortTitle || d.title || d.name] as const)));
  const shown = (v: unknown) => (typeof v === "number" ? formatNumber(locale, v) : String(v));
  const filters = applied.filters.map((f) => {
    const values = f.value === undefined ? [] : Array.isArray(f.value) ? f.value : [f.value];
    const operator = f.operator ?? "equals";
    const tail = /contains|starts_with/.test(operator) && values.length ? "…" : "";
    const text =
      operator === "between" ? values.map(shown).join(" – ") : `${SIGNS[operator] ?? ""}${values.map(shown).join(chatText(locale, "aiContextOr"))}${tail}`;
    return `${titles.get(f.member) ?? f.member}: ${text}`;
  });
  const viewTitles = applied.views.map((v) => sources.find((s) => s.name === v)?.title || v);
  return [...filters, chatText(locale, "aiContextViews", { views: viewTitles.join(", ") })].join(" · ");
}

export function AiContextHeader({ locale, sources }: { locale: SupportedLocale; sources: readonly Source[] }) {
  const applied = useStore(aiContextStore, (s) => s.applied);
  if (!applied) return null;
  return (
    <div className="svc-chat-context" data-testid="chat-ai-context" title={chatText(locale, "aiContextHint")}>
      <span className="svc-chat-context-label">{chatText(locale, "aiContext")}</span>
      {applied.title ? <strong className="svc-chat-context-title">{applied.title}</strong> : null}
      <span className="svc-chat-context-words" data-testid="chat-ai-context-words">
        {aiContextInWords(locale, applied, sources)}
      </span>
    </div>
  );
}
