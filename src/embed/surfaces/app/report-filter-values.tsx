/**
 * The value fields of a report-builder filter, by what its operator takes: two number bounds,
 * two dates, one date, or a list of values (with the member's values to pick from when it is
 * text). What is typed goes to the draft as it is; a filter whose values are not complete yet is
 * left out of the query (report-draft-query.ts), so nothing here has to refuse a half-typed value.
 */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { MemberFilter } from "../../../schema/semantic-query";
import type { MetaMember } from "./app-api";
import { useApp } from "./app-context";
import { useAppText } from "./app-messages";
import { useEmbedStore } from "../../state/use-embed-store";
import { DateField } from "../../ui/date-field";
import { rangeValues } from "./report-filters";
import { appQueries } from "./app-queries";

interface ValuesProps {
  filter: MemberFilter;
  onChange(f: MemberFilter): void;
}

const textOf = (v: unknown) => (v === undefined || v === null ? "" : String(v));

/** The lower and upper bound of a `between` filter, both included. */
export function NumberRangeValues(props: ValuesProps) {
  const text = useAppText();
  const [low, high] = props.filter.values ?? [];
  const [bounds, setBounds] = useState({ low: textOf(low), high: textOf(high) });
  const commit = (next: { low: string; high: string }) => {
    setBounds(next);
    props.onChange({ ...props.filter, values: rangeValues(next.low, next.high) });
  };
  const field = (end: "low" | "high") => (
    <input
      className="svc-app-input"
      type="number"
      inputMode="decimal"
      aria-label={text(end === "low" ? "betweenLow" : "betweenHigh")}
      placeholder={text(end === "low" ? "betweenLow" : "betweenHigh")}
      value={bounds[end]}
      onChange={(e) => setBounds({ ...bounds, [end]: e.target.value })}
      onBlur={(e) => commit({ ...bounds, [end]: e.target.value })}
      data-testid={`filter-${end}`}
    />
  );
  return (
    <span className="svc-app-range">
      {field("low")}
      {field("high")}
    </span>
  );
}

/** The first and last day of an `inDateRange` filter; an end without a start (or the other way) waits. */
export function DateRangeValues(props: ValuesProps) {
  const text = useAppText();
  const locale = useEmbedStore((s) => s.locale);
  const [from, to] = (props.filter.values ?? []).map(textOf);
  const set = (next: [string, string]) => props.onChange({ ...props.filter, values: next });
  return (
    <span className="svc-app-range">
      <DateField
        inputClassName="svc-app-input"
        locale={locale}
        label={text("rangeStart")}
        value={from ?? ""}
        onChange={(value) => set([value, to ?? ""])}
        data-testid="filter-from"
      />
      <DateField
        inputClassName="svc-app-input"
        locale={locale}
        label={text("rangeEnd")}
        value={to ?? ""}
        onChange={(value) => set([from ?? "", value])}
        data-testid="filter-to"
      />
    </span>
  );
}

/** The one date of a before / after filter. */
export function DateValue(props: ValuesProps) {
  const text = useAppText();
  const locale = useEmbedStore((s) => s.locale);
  return (
    <span className="svc-app-filter-value">
      <DateField
        inputClassName="svc-app-input"
        locale={locale}
        label={text("filterDate")}
        value={textOf(props.filter.values?.[0])}
        onChange={(value) => props.onChange({ ...props.filter, values: value ? [value] : [] })}
        data-testid="filter-date"
      />
    </span>
  );
}

/** A comma-separated list of values, with the member's values to pick from when it is text. */
export function ListValues(props: ValuesProps & { member: MetaMember | undefined }) {
  const { api } = useApp();
  const text = useAppText();
  const f = props.filter;
  const [typed, setTyped] = useState((f.values ?? []).join(", "));
  const values = useQuery({ ...appQueries.values(api, f.member), enabled: props.member?.type === "string" });
  const listId = `values-${f.member.replace(/\W/g, "_")}`;
  // Kept as typed: a word in a number filter leaves the filter incomplete rather than quietly dropped.
  const commit = (raw: string) =>
    props.onChange({
      ...f,
      values: raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    });
  return (
    <>
      <input
        className="svc-app-input svc-app-filter-value"
        aria-label={text("filterValues")}
        list={listId}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        onBlur={(e) => commit(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && commit((e.target as HTMLInputElement).value)}
        data-testid="filter-values"
      />
      <datalist id={listId}>
        {(values.data ?? []).slice(0, 100).map((v) => (
          <option key={String(v)} value={String(v)} />
        ))}
      </datalist>
    </>
  );
}
