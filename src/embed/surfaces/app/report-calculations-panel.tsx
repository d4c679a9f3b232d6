/**
 * The report builder's calculations: percent of total, and a comparison with the previous period
 * or the same period a year before. A choice that cannot run yet says why on its row and is
 * left out of the query (`withCalculations`).
 */
import { useAppText, type AppMessageKey } from "./app-messages";
import type { CalculatedQuery, CalculationChoices, CompareMode } from "./report-calculations";

export interface CalculationsPanelProps {
  value: CalculationChoices;
  leftOut: CalculatedQuery["leftOut"];
  disabled: boolean;
  onChange(next: Partial<CalculationChoices>): void;
}

const COMPARE_NAMES: Record<CompareMode, AppMessageKey> = {
  none: "compareNone",
  previousPeriod: "comparePreviousPeriod",
  yearBefore: "compareYearAgo",
};

export function CalculationsPanel(props: CalculationsPanelProps) {
  const text = useAppText();
  const { value, leftOut } = props;
  return (
    <fieldset className="svc-app-fieldset svc-app-time" disabled={props.disabled} data-testid="calculations">
      <legend>{text("calculations")}</legend>
      <label className="svc-app-check-row">
        <input
          type="checkbox"
          checked={value.percentOfTotal}
          onChange={(e) => props.onChange({ percentOfTotal: e.target.checked })}
          data-testid="percent-of-total"
        />
        {text("percentOfTotal")}
      </label>
      {leftOut.percentOfTotal ? (
        <span className="svc-app-filter-note" role="note" data-testid="percent-of-total-left-out">
          {text(leftOut.percentOfTotal)}
        </span>
      ) : null}
      <label className="svc-app-field">
        <span>{text("compareWith")}</span>
        <select
          className="svc-app-input"
          value={value.compare}
          onChange={(e) => props.onChange({ compare: e.target.value as CompareMode })}
          data-testid="compare-mode"
        >
          {(Object.keys(COMPARE_NAMES) as CompareMode[]).map((mode) => (
            <option key={mode} value={mode}>
              {text(COMPARE_NAMES[mode])}
            </option>
          ))}
        </select>
      </label>
      {leftOut.compare ? (
        <span className="svc-app-filter-note" role="note" data-testid="compare-left-out">
          {text(leftOut.compare)}
        </span>
      ) : null}
    </fieldset>
  );
}
