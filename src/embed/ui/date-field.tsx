/**
 * A calendar date as the viewer's locale writes it ("15.03.2025" in German), typed or picked
 * from the browser's calendar. A native date input would show the browser's format
 * ("mm/dd/yyyy" in an English browser) whatever the embed's locale. The value is `YYYY-MM-DD`
 * or ""; `onChange` is called with a whole, existing date or "" only (on Enter or when the field
 * is left): what is half typed stays in the field, marked invalid, and reaches nothing.
 */
import { useEffect, useRef, useState } from "react";
import { t, type SupportedLocale } from "../i18n";
import { datePlaceholder, formatDateText, parseDateText } from "./date-text";
import { CalendarIcon } from "./icons";
import "./buttons.css";
import "./date-field.css";

export interface DateFieldProps {
  value: string;
  onChange(value: string): void;
  locale: SupportedLocale;
  /** The field's accessible name ("Order date from"). */
  label: string;
  "data-testid"?: string;
  /** Classes of the text field (the surface's own input style). */
  inputClassName?: string;
}

export function DateField(props: DateFieldProps) {
  const { value, locale, onChange } = props;
  const [text, setText] = useState(() => formatDateText(value, locale));
  const [invalid, setInvalid] = useState(false);
  const native = useRef<HTMLInputElement>(null);
  const pattern = datePlaceholder(locale);

  useEffect(() => {
    setText(formatDateText(value, locale));
    setInvalid(false);
  }, [value, locale]);

  const commit = () => {
    if (text.trim() === "") {
      setInvalid(false);
      if (value !== "") onChange("");
      return;
    }
    const parsed = parseDateText(text, locale);
    if (parsed === null) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setText(formatDateText(parsed, locale));
    if (parsed !== value) onChange(parsed);
  };

  return (
    <span className="svc-date-field" data-invalid={invalid || undefined}>
      <input
        type="text"
        className={props.inputClassName}
        inputMode="numeric"
        autoComplete="off"
        aria-label={props.label}
        aria-invalid={invalid || undefined}
        title={invalid ? t(locale, "date.invalid", { pattern }) : undefined}
        placeholder={pattern}
        value={text}
        data-testid={props["data-testid"]}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") commit();
        }}
      />
      <button
        type="button"
        className="svc-icon-button svc-date-pick"
        aria-label={`${t(locale, "pickDate")}: ${props.label}`}
        onClick={() => native.current?.showPicker?.()}
      >
        <CalendarIcon size={15} />
      </button>
      <input ref={native} className="svc-date-native" type="date" tabIndex={-1} aria-hidden="true" value={value} onChange={(e) => onChange(e.target.value)} />
    </span>
  );
}
