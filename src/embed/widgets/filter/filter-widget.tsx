/**
 * FILTER widget: a control bound to one member that writes the dashboard's filter state
 * (the same state URL `f_` parameters and the host's `set-filter` write). Value pickers list
 * the member's distinct values from the server, searchable.
 */
import { useEffect, useId, useRef, useState } from "react";
import type { DashboardWidget } from "../../../schema/dashboard";
import type { FilterScalar } from "../../../schema/dashboard-filters";
import { t } from "../../i18n";
import { useEmbedStore, useEmbedStoreApi } from "../../state/use-embed-store";
import { ChevronDownIcon, CloseIcon, SearchIcon } from "../../ui/icons";
import { DateField } from "../../ui/date-field";
import { isAbortError } from "../../shell/api";
import { useWidgetHost } from "../../grid/widget-host";
import { WidgetFrame } from "../../grid/widget-frame";
import { filterConfigOf, rangeFilter, rangeOf, selectedValues, valuesFilter, type FilterWidgetConfig } from "./filter-config";
import "../../ui/buttons.css";
import "../control.css";
import "./filter-widget.css";

export function FilterWidget(props: { widget: DashboardWidget }) {
  const config = filterConfigOf(props.widget);
  const locale = useEmbedStore((s) => s.locale);
  if (!config) {
    return (
      <WidgetFrame
        widget={props.widget}
        title={null}
        state="error"
        error={{ name: "ConfigInvalid", message: t(locale, "widget.noReport") }}
        variant="control"
      />
    );
  }
  const label = config.label ?? config.member.split(".")[1]!.replace(/_/g, " ");
  return (
    <WidgetFrame widget={props.widget} title={null} state="ready" variant="control">
      <div className="svc-filter">
        <span className="svc-filter-label" id={`label-${props.widget.id}`}>
          {label}
        </span>
        {config.control === "values" ? <ValuePicker config={config} label={label} /> : <RangeInputs config={config} label={label} />}
      </div>
    </WidgetFrame>
  );
}

function display(value: FilterScalar | unknown): string {
  return value === null || value === undefined ? "∅" : String(value);
}

function ValuePicker(props: { config: FilterWidgetConfig; label: string }) {
  const { member, multiple } = props.config;
  const host = useWidgetHost();
  const store = useEmbedStoreApi();
  const locale = useEmbedStore((s) => s.locale);
  const selected = selectedValues(useEmbedStore((s) => s.filters[member]));
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const [values, setValues] = useState<unknown[] | null>(null);
  const [failed, setFailed] = useState(false);
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        host.distinctValues(member, search, controller.signal).then(
          (v) => {
            setValues(v);
            setFailed(false);
          },
          (e: unknown) => {
            if (!isAbortError(e)) setFailed(true);
          },
        );
      },
      search ? 200 : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [open, search, member, host]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  // A value's label in the viewer's locale (a translation, a country's name) once the platform gave one.
  const shown = (value: unknown) => host.valueLabel?.(member, value) ?? display(value);
  const toggle = (value: FilterScalar) => {
    const has = selected.some((v) => v === value);
    const next = multiple ? (has ? selected.filter((v) => v !== value) : [...selected, value]) : has ? [] : [value];
    store.getState().setFilter(member, valuesFilter(member, next));
    if (!multiple) setOpen(false);
  };

  const summary =
    selected.length === 0 ? t(locale, "all") : selected.length === 1 ? shown(selected[0]) : t(locale, "filter.selected", { count: selected.length });
  return (
    <div className="svc-picker" ref={rootRef} onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <button
        type="button"
        className={`svc-picker-button ${selected.length ? "is-active" : ""}`}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={`${props.label}: ${summary}`}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="svc-picker-prefix" aria-hidden="true">
          {props.label}
        </span>
        <span className="svc-picker-summary">{summary}</span>
        <ChevronDownIcon size={14} />
      </button>
      {selected.length > 0 ? (
        <button
          type="button"
          className="svc-icon-button"
          aria-label={`${t(locale, "clear")}: ${props.label}`}
          onClick={() => store.getState().setFilter(member, null)}
        >
          <CloseIcon size={14} />
        </button>
      ) : null}
      {open ? (
        <div className="svc-popover" role="dialog" aria-label={props.label}>
          <label className="svc-search">
            <SearchIcon size={14} />
            <input
              autoFocus
              type="search"
              placeholder={t(locale, "search")}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              aria-label={t(locale, "search")}
            />
          </label>
          <ul className="svc-options" role="listbox" id={listId} aria-multiselectable={multiple} aria-label={props.label}>
            {values === null && !failed ? <li className="svc-options-note">{t(locale, "loading")}</li> : null}
            {failed ? <li className="svc-options-note">{t(locale, "error.QueryFailed")}</li> : null}
            {values?.length === 0 ? <li className="svc-options-note">{t(locale, "filter.noValues")}</li> : null}
            {values
              ?.filter((v): v is FilterScalar => typeof v === "string" || typeof v === "number" || typeof v === "boolean")
              .map((value) => {
                const checked = selected.some((v) => v === value);
                return (
                  <li key={String(value)} role="option" aria-selected={checked}>
                    <label className="svc-option">
                      <input type={multiple ? "checkbox" : "radio"} name={listId} checked={checked} onChange={() => toggle(value)} />
                      <span>{shown(value)}</span>
                    </label>
                  </li>
                );
              })}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

function RangeInputs(props: { config: FilterWidgetConfig; label: string }) {
  const { member, control } = props.config;
  const store = useEmbedStoreApi();
  const locale = useEmbedStore((s) => s.locale);
  const filter = useEmbedStore((s) => s.filters[member]);
  const [from, to] = rangeOf(filter);
  const isDate = control === "dateRange";
  const [draft, setDraft] = useState<[string, string]>([
    from === null ? "" : String(from).slice(0, isDate ? 10 : undefined),
    to === null ? "" : String(to).slice(0, isDate ? 10 : undefined),
  ]);

  useEffect(() => {
    setDraft([from === null ? "" : String(from).slice(0, isDate ? 10 : undefined), to === null ? "" : String(to).slice(0, isDate ? 10 : undefined)]);
  }, [from, to, isDate]);

  const parse = (text: string): FilterScalar | null => {
    if (text.trim() === "") return null;
    if (isDate) return text;
    const n = Number(text);
    return Number.isFinite(n) ? n : null;
  };
  const commit = (next: [string, string]) => {
    const f = rangeFilter(member, parse(next[0]), parse(next[1]));
    store.getState().setFilter(member, f);
  };
  const commitDate = (index: 0 | 1) => (value: string) => {
    const next: [string, string] = index === 0 ? [value, draft[1]] : [draft[0], value];
    setDraft(next);
    commit(next);
  };
  return (
    <div className="svc-range" role="group" aria-label={props.label}>
      {isDate ? (
        <>
          <DateField locale={locale} label={`${props.label} ${t(locale, "from")}`} value={draft[0]} onChange={commitDate(0)} />
          <span className="svc-range-sep" aria-hidden="true">
            –
          </span>
          <DateField locale={locale} label={`${props.label} ${t(locale, "to")}`} value={draft[1]} onChange={commitDate(1)} />
        </>
      ) : (
        <>
          <input
            type="number"
            aria-label={`${props.label} ${t(locale, "from")}`}
            placeholder={t(locale, "from")}
            value={draft[0]}
            onChange={(e) => setDraft([e.target.value, draft[1]])}
            onBlur={() => commit(draft)}
            onKeyDown={(e) => e.key === "Enter" && commit(draft)}
          />
          <span className="svc-range-sep" aria-hidden="true">
            –
          </span>
          <input
            type="number"
            aria-label={`${props.label} ${t(locale, "to")}`}
            placeholder={t(locale, "to")}
            value={draft[1]}
            onChange={(e) => setDraft([draft[0], e.target.value])}
            onBlur={() => commit(draft)}
            onKeyDown={(e) => e.key === "Enter" && commit(draft)}
          />
        </>
      )}
      {filter ? (
        <button
          type="button"
          className="svc-icon-button"
          aria-label={`${t(locale, "clear")}: ${props.label}`}
          onClick={() => store.getState().setFilter(member, null)}
        >
          <CloseIcon size={14} />
        </button>
      ) : null}
    </div>
  );
}
