/**
 * The report builder's time panel: which time dimension, grouped by a period or by a part of
 * time (named in the viewer's language), over which date range, and the comparison with the year
 * before (periods only: a part of time has no previous period).
 */
import type { SemanticQuery } from "../../shell/platform-api";
import type { MetaMember } from "./app-api";
import { useAppText } from "./app-messages";
import { GRANULARITIES, TIME_PART_NAMES, timeGroupingOf, withTimeGrouping } from "./report-time";

type TimeDimension = NonNullable<SemanticQuery["timeDimensions"]>[number];

const DATE_RANGES = ["", "Last 7 days", "Last 30 days", "This month", "This quarter", "This year", "Last year"];

export interface TimePanelProps {
  /** The view's time dimensions. */
  members: readonly MetaMember[];
  value: TimeDimension | undefined;
  label(m: MetaMember): string;
  disabled: boolean;
  onChange(td: TimeDimension | null): void;
  compare: boolean;
  onCompareChange(compare: boolean): void;
}

export function TimePanel(props: TimePanelProps) {
  const text = useAppText();
  const td = props.value;
  return (
    <fieldset className="svc-app-fieldset" disabled={props.disabled}>
      <legend>Time</legend>
      <select
        className="svc-app-input"
        aria-label="Time dimension"
        value={td?.dimension ?? ""}
        onChange={(e) => {
          const dimension = e.target.value;
          // Another time dimension keeps the grouping and range; the first one starts by month.
          props.onChange(dimension ? (td ? { ...td, dimension } : { dimension, granularity: "month" }) : null);
        }}
        data-testid="time-dimension"
      >
        <option value="">None</option>
        {props.members.map((m) => (
          <option key={m.name} value={m.name}>
            {props.label(m)}
          </option>
        ))}
      </select>
      {td ? (
        <div className="svc-app-inline">
          <select
            className="svc-app-input"
            aria-label={text("groupBy")}
            value={timeGroupingOf(td)}
            onChange={(e) => props.onChange(withTimeGrouping(td, e.target.value))}
            data-testid="time-grouping"
          >
            <option value="">No grouping</option>
            <optgroup label={text("periods")}>
              {GRANULARITIES.map((g) => (
                <option key={g} value={`granularity:${g}`}>
                  {g}
                </option>
              ))}
            </optgroup>
            <optgroup label={text("partsOfTime")}>
              {Object.entries(TIME_PART_NAMES).map(([part, key]) => (
                <option key={part} value={`part:${part}`}>
                  {text(key)}
                </option>
              ))}
            </optgroup>
          </select>
          <select
            className="svc-app-input"
            aria-label="Date range"
            value={typeof td.dateRange === "string" ? td.dateRange : ""}
            onChange={(e) => {
              const { dateRange: _drop, ...rest } = td;
              props.onChange({ ...rest, ...(e.target.value ? { dateRange: e.target.value } : {}) });
            }}
          >
            {DATE_RANGES.map((r) => (
              <option key={r} value={r}>
                {r || "All time"}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {td?.granularity ? (
        <label className="svc-app-check-row">
          <input type="checkbox" checked={props.compare} onChange={(e) => props.onCompareChange(e.target.checked)} /> Compare with the year before
        </label>
      ) : null}
    </fieldset>
  );
}
