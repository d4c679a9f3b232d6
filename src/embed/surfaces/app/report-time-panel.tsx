/**
 * The report builder's time panel: which time dimension, grouped by a period or by a part of
 * time, over which date range (a relative one, or a custom range of two dates); every choice named
 * in the viewer's language (comparisons are in the calculations panel). A custom range with one date yet is left out of the query.
 */
import type { SemanticQuery } from "../../shell/platform-api";
import type { MetaMember } from "./app-api";
import { useAppText } from "./app-messages";
import { useEmbedStore } from "../../state/use-embed-store";
import { DateField } from "../../ui/date-field";
import { isCompleteDateRange } from "./report-draft-query";
import {
  dateRangeChoiceOf,
  GRANULARITIES,
  GRANULARITY_NAMES,
  RELATIVE_DATE_RANGES,
  TIME_PART_NAMES,
  timeGroupingOf,
  withDateRangeChoice,
  withTimeGrouping,
} from "./report-time";

type TimeDimension = NonNullable<SemanticQuery["timeDimensions"]>[number];

export interface TimePanelProps {
  /** The view's time dimensions. */
  members: readonly MetaMember[];
  value: TimeDimension | undefined;
  label(m: MetaMember): string;
  disabled: boolean;
  onChange(td: TimeDimension | null): void;
}

export function TimePanel(props: TimePanelProps) {
  const text = useAppText();
  const locale = useEmbedStore((s) => s.locale);
  const td = props.value;
  const range = td?.dateRange;
  return (
    <fieldset className="svc-app-fieldset svc-app-time" disabled={props.disabled}>
      <legend>{text("time")}</legend>
      <select
        className="svc-app-input"
        aria-label={text("timeDimension")}
        value={td?.dimension ?? ""}
        onChange={(e) => {
          const dimension = e.target.value;
          // Another time dimension keeps the grouping and range; the first one starts by month.
          props.onChange(dimension ? (td ? { ...td, dimension } : { dimension, granularity: "month" }) : null);
        }}
        data-testid="time-dimension"
      >
        <option value="">{text("noTimeDimension")}</option>
        {props.members.map((m) => (
          <option key={m.name} value={m.name}>
            {props.label(m)}
          </option>
        ))}
      </select>
      {td ? (
        <>
          <select
            className="svc-app-input"
            aria-label={text("groupBy")}
            value={timeGroupingOf(td)}
            onChange={(e) => props.onChange(withTimeGrouping(td, e.target.value))}
            data-testid="time-grouping"
          >
            <option value="">{text("noGrouping")}</option>
            <optgroup label={text("periods")}>
              {GRANULARITIES.map((g) => (
                <option key={g} value={`granularity:${g}`}>
                  {text(GRANULARITY_NAMES[g])}
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
            aria-label={text("dateRange")}
            value={dateRangeChoiceOf(range)}
            onChange={(e) => props.onChange(withDateRangeChoice(td, e.target.value))}
            data-testid="time-range"
          >
            <option value="">{text("rangeAllTime")}</option>
            {RELATIVE_DATE_RANGES.map(([value, key]) => (
              <option key={value} value={value}>
                {text(key)}
              </option>
            ))}
            <option value="custom">{text("rangeCustom")}</option>
          </select>
          {Array.isArray(range) ? (
            <span className="svc-app-range">
              <DateField
                inputClassName="svc-app-input"
                locale={locale}
                label={text("rangeStart")}
                value={range[0]}
                onChange={(value) => props.onChange({ ...td, dateRange: [value, range[1]] })}
                data-testid="time-range-start"
              />
              <DateField
                inputClassName="svc-app-input"
                locale={locale}
                label={text("rangeEnd")}
                value={range[1]}
                onChange={(value) => props.onChange({ ...td, dateRange: [range[0], value] })}
                data-testid="time-range-end"
              />
            </span>
          ) : null}
          {Array.isArray(range) && !isCompleteDateRange(range) ? (
            <span className="svc-app-filter-note" role="note" data-testid="time-range-incomplete">
              {text("filterIncomplete")}
            </span>
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}
