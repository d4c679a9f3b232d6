/**
 * One filter of the report builder: a member, an operator its type takes (named as people say it,
 * in the viewer's language), and its values. A filter that cannot run yet (no value, one bound,
 * a word in a number filter, half a date range) says so quietly: it is left out of the query
 * until it is complete, which is not an error.
 */
import type { MemberFilter } from "../../../schema/semantic-query";
import type { MetaMember } from "./app-api";
import { useAppText } from "./app-messages";
import { filterState } from "./report-draft-query";
import { DateRangeValues, DateValue, ListValues, NumberRangeValues } from "./report-filter-values";
import { OPERATOR_NAMES, operatorsFor, valueInputOf, valuesAfterOperatorChange } from "./report-filters";

export interface FilterRowProps {
  filter: MemberFilter;
  members: MetaMember[];
  label(m: MetaMember | string): string;
  onChange(f: MemberFilter): void;
  onRemove(): void;
}

export function FilterRow(props: FilterRowProps) {
  const text = useAppText();
  const f = props.filter;
  const member = props.members.find((m) => m.name === f.member);
  const operators = operatorsFor(member, f.operator);
  const input = valueInputOf(f.operator);
  const incomplete = filterState(f, (name) => props.members.find((m) => m.name === name)?.type) === "incomplete";
  // New fields for another member or operator: what was typed for one does not carry over.
  const key = `${f.member} ${f.operator}`;
  return (
    <div className={`svc-app-filter${incomplete ? " is-incomplete" : ""}`} data-testid="filter-row" data-state={incomplete ? "incomplete" : "complete"}>
      <select
        className="svc-app-input"
        aria-label={text("filterMember")}
        value={f.member}
        onChange={(e) => props.onChange({ ...f, member: e.target.value, values: [] })}
      >
        {props.members.map((m) => (
          <option key={m.name} value={m.name}>
            {props.label(m)}
          </option>
        ))}
      </select>
      <button type="button" className="svc-icon-button" aria-label={text("removeFilter")} title={text("removeFilter")} onClick={props.onRemove}>
        ×
      </button>
      <select
        className="svc-app-input svc-app-filter-operator"
        aria-label={text("operator")}
        value={f.operator}
        onChange={(e) => {
          const operator = operators.find((o) => o === e.target.value);
          if (operator) props.onChange({ ...f, operator, values: valuesAfterOperatorChange(f.operator, operator, f.values) });
        }}
      >
        {operators.map((o) => (
          <option key={o} value={o}>
            {text(OPERATOR_NAMES[o])}
          </option>
        ))}
      </select>
      {input === "numberRange" ? (
        <NumberRangeValues key={key} filter={f} onChange={props.onChange} />
      ) : input === "dateRange" ? (
        <DateRangeValues key={key} filter={f} onChange={props.onChange} />
      ) : input === "date" ? (
        <DateValue key={key} filter={f} onChange={props.onChange} />
      ) : input === "list" ? (
        <ListValues key={key} filter={f} member={member} onChange={props.onChange} />
      ) : null}
      {incomplete ? (
        <span className="svc-app-filter-note" role="note" title={text("filterIncompleteHint")} data-testid="filter-incomplete">
          {text("filterIncomplete")}
        </span>
      ) : null}
    </div>
  );
}
