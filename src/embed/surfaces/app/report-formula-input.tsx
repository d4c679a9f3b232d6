/**
 * The formula field of the formula editor: a combobox whose list completes the word at the caret
 * with the view's members (title and name), functions and keywords (`completionsAt`). Typing a
 * letter opens it, Ctrl+Space lists every member, ↑/↓ pick, Enter or Tab take the pick, Escape
 * closes the list (not the dialog). The list sits in the flow under the field, so no card or
 * dialog edge can hide it.
 */
import { forwardRef, useId, useState, type KeyboardEvent } from "react";
import type { MetaSource } from "./app-api";
import { useAppText, type AppMessageKey } from "./app-messages";
import { applyCompletion, bareName, completionsAt, type Completion, type CompletionList } from "./report-formula";

export interface FormulaInputProps {
  value: string;
  source: MetaSource;
  onChange(value: string): void;
  invalid: boolean;
  describedBy: string;
  id?: string;
}

const KIND_WORDS: Record<Completion["kind"], AppMessageKey> = {
  measure: "formulaKindMeasure",
  dimension: "formulaKindDimension",
  function: "formulaKindFunction",
  keyword: "formulaKindKeyword",
};

export const FormulaInput = forwardRef<HTMLInputElement, FormulaInputProps>(function FormulaInput(props, ref) {
  const text = useAppText();
  const id = useId();
  const [list, setList] = useState<CompletionList | null>(null);
  const [active, setActive] = useState(0);

  const open = (value: string, caret: number, all = false) => {
    setList(completionsAt(value, caret, props.source, all));
    setActive(0);
  };
  const take = (item: Completion, input: HTMLInputElement) => {
    if (!list) return;
    const next = applyCompletion(props.value, list, item);
    props.onChange(next.text);
    setList(null);
    requestAnimationFrame(() => input.setSelectionRange(next.caret, next.caret));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    if (e.key === " " && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      return open(props.value, input.selectionStart ?? props.value.length, true);
    }
    if (!list) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const by = e.key === "ArrowDown" ? 1 : -1;
      setActive((a) => (a + by + list.items.length) % list.items.length);
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      take(list.items[active] ?? list.items[0]!, input);
    } else if (e.key === "Escape") {
      // The list closes; the dialog stays.
      e.preventDefault();
      e.stopPropagation();
      setList(null);
    }
  };

  const optionId = (i: number) => `${id}-option-${i}`;
  return (
    <div className="svc-formula-combo">
      <input
        ref={ref}
        id={props.id}
        className="svc-app-input svc-formula-input"
        value={props.value}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={list !== null}
        aria-controls={`${id}-list`}
        aria-activedescendant={list ? optionId(active) : undefined}
        aria-invalid={props.invalid}
        aria-describedby={props.describedBy}
        spellCheck={false}
        autoComplete="off"
        autoCapitalize="off"
        maxLength={2000}
        onChange={(e) => {
          props.onChange(e.target.value);
          open(e.target.value, e.target.selectionStart ?? e.target.value.length);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setList(null)}
        data-testid="formula-input"
      />
      {list ? (
        <ul className="svc-formula-completions" role="listbox" id={`${id}-list`} aria-label={text("formulaSuggestions")} data-testid="formula-completions">
          {list.items.map((item, i) => (
            <li
              key={`${item.kind}:${item.insert}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={i === active ? "is-active" : undefined}
              // Before the field's blur: the pick lands, then the list closes.
              onMouseDown={(e) => {
                e.preventDefault();
                const input = e.currentTarget.closest(".svc-formula-combo")?.querySelector("input");
                if (input) take(item, input);
              }}
              data-insert={item.insert}
            >
              <span className="svc-formula-completion-title">{item.member ? item.member.shortTitle || item.member.title : item.insert.trim()}</span>
              {item.member ? <code className="svc-formula-completion-name">{bareName(props.source, item.member)}</code> : null}
              <span className="svc-formula-completion-kind">{text(KIND_WORDS[item.kind])}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
});
