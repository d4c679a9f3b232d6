/**
 * One filter of the report builder: a member, an operator its type takes, and its values: a
 * comma-separated list (with the member's values to pick from), two bounds for `between`, or
 * nothing for `set` / `notSet`.
 */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { MemberFilter } from "../../../schema/semantic-query";
import type { MetaMember } from "./app-api";
import { useApp } from "./app-context";
import { useAppText } from "./app-messages";
import { isRangeOperator, NO_VALUE_OPERATORS, operatorsFor, rangeValues, valuesAfterOperatorChange } from "./report-filters";

export interface FilterRowProps {
  filter: MemberFilter;
  members: MetaMember[];
  label(m: MetaMember | string): string;
  onChange(f: MemberFilter): void;
  onRemove(): void;
}

export function FilterRow(props: FilterRowProps) {
  const f = props.filter;
  const member = props.members.find((m) => m.name === f.member);
  const operators = operatorsFor(member, f.operator);
  return (
    <div className="svc-app-filter" data-testid="filter-row">
      <select
        className="svc-app-input"
        aria-label="Filter member"
        value={f.member}
        onChange={(e) => props.onChange({ ...f, member: e.target.value, values: [] })}
      >
        {props.members.map((m) => (
          <option key={m.name} value={m.name}>
            {props.label(m)}
          </option>
        ))}
      </select>
      <select
        className="svc-app-input"
        aria-label="Operator"
        value={f.operator}
        onChange={(e) => {
          const operator = operators.find((o) => o === e.target.value);
          if (operator) props.onChange({ ...f, operator, values: valuesAfterOperatorChange(f.operator, operator, f.values) });
        }}
      >
        {operators.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      {NO_VALUE_OPERATORS.has(f.operator) ? null : isRangeOperator(f.operator) ? (
        <RangeValues key={`${f.member} ${f.operator}`} filter={f} onChange={props.onChange} />
      ) : (
        <ListValues key={`${f.member} ${f.operator}`} filter={f} member={member} onChange={props.onChange} />
      )}
      <button type="button" className="svc-icon-button" aria-label="Remove filter" onClick={props.onRemove}>
        ×
      </button>
    </div>
  );
}

/** The lower and upper bound of a `between` filter, both included. */
function RangeValues(props: { filter: MemberFilter; onChange(f: MemberFilter): void }) {
  const text = useAppText();
  const [low, high] = props.filter.values ?? [];
  const [bounds, setBounds] = useState({
    low: low === undefined || low === null ? "" : String(low),
    high: high === undefined || high === null ? "" : String(high),
  });
  const commit = (next: { low: string; high: string }) => {
    setBounds(next);
    props.onChange({ ...props.filter, values: rangeValues(next.low, next.high) });
  };
  return (
    <span className="svc-app-range">
      <input
        className="svc-app-input"
        type="number"
        inputMode="decimal"
        aria-label={text("betweenLow")}
        placeholder={text("betweenLow")}
        value={bounds.low}
        onChange={(e) => setBounds({ ...bounds, low: e.target.value })}
        onBlur={(e) => commit({ ...bounds, low: e.target.value })}
        data-testid="filter-low"
      />
      <input
        className="svc-app-input"
        type="number"
        inputMode="decimal"
        aria-label={text("betweenHigh")}
        placeholder={text("betweenHigh")}
        value={bounds.high}
        onChange={(e) => setBounds({ ...bounds, high: e.target.value })}
        onBlur={(e) => commit({ ...bounds, high: e.target.value })}
        data-testid="filter-high"
      />
    </span>
  );
}

/** A comma-separated list of values, with the member's values to pick from when it is text. */
function ListValues(props: { filter: MemberFilter; member: MetaMember | undefined; onChange(f: MemberFilter): void }) {
  const { api } = useApp();
  const f = props.filter;
  const [text, setText] = useState((f.values ?? []).join(", "));
  const values = useQuery({
    queryKey: ["app", api.deploymentId, "values", f.member],
    queryFn: () => api.values(f.member, ""),
    enabled: props.member?.type === "string",
    staleTime: 60_000,
  });
  const listId = `values-${f.member.replace(/\W/g, "_")}`;
  const commit = (raw: string) => {
    const parts = raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    props.onChange({
      ...f,
      values:
        props.member?.type === "number"
          ? parts
              .map(Number)
              .filter((n) => !Number.isNaN(n))
              .map(String)
          : parts,
    });
  };
  return (
    <>
      <input
        className="svc-app-input"
        aria-label="Values (comma separated)"
        list={listId}
        value={text}
        placeholder={props.member?.type === "time" ? "2025-01-01, 2025-12-31" : "value, value"}
        onChange={(e) => setText(e.target.value)}
        onBlur={(e) => commit(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && commit((e.target as HTMLInputElement).value)}
      />
      <datalist id={listId}>
        {(values.data ?? []).slice(0, 100).map((v) => (
          <option key={String(v)} value={String(v)} />
        ))}
      </datalist>
    </>
  );
}
