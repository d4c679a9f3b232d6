/**
 * The report builder's filters: one row per member filter, and a button that adds one. A new
 * filter has no value yet: it shows as incomplete and is left out of the query until it has one.
 */
import type { MemberFilter } from "../../../schema/semantic-query";
import type { SemanticQuery } from "../../shell/platform-api";
import type { MetaMember } from "./app-api";
import { useAppText } from "./app-messages";
import { FilterRow } from "./report-filter-row";

export interface FiltersPanelProps {
  filters: NonNullable<SemanticQuery["filters"]>;
  /** The view's dimensions and measures. */
  members: MetaMember[];
  label(m: MetaMember | string): string;
  disabled: boolean;
  onChange(filters: NonNullable<SemanticQuery["filters"]>): void;
}

export function FiltersPanel(props: FiltersPanelProps) {
  const text = useAppText();
  const first = props.members[0];
  return (
    <fieldset className="svc-app-fieldset" disabled={props.disabled}>
      <legend>{text("filters")}</legend>
      {props.filters.map((f, i) =>
        "member" in f ? (
          <FilterRow
            key={i}
            filter={f}
            members={props.members}
            label={props.label}
            onChange={(next: MemberFilter) => props.onChange(props.filters.map((x, j) => (j === i ? next : x)))}
            onRemove={() => props.onChange(props.filters.filter((_, j) => j !== i))}
          />
        ) : null,
      )}
      <button
        type="button"
        className="svc-button is-small"
        onClick={() => first && props.onChange([...props.filters, { member: first.name, operator: "equals", values: [] }])}
      >
        {text("addFilter")}
      </button>
    </fieldset>
  );
}
