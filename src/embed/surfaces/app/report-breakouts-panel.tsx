/**
 * The report builder's breakouts: the dimensions the answer is grouped by, in order (the first
 * is the outermost). Each is a row with its dimension, up and down, and remove; "+ Breakout"
 * adds a row whose dimension is not picked yet, which is marked incomplete and left out of the
 * query until it is (`completeQueryOf`).
 */
import type { MetaMember } from "./app-api";
import { useAppText } from "./app-messages";

export interface BreakoutsPanelProps {
  /** The draft's dimensions: "" is a breakout still being picked. */
  dimensions: readonly string[];
  /** The dimensions of the view that can break the answer out (not time: the time panel has it). */
  members: readonly MetaMember[];
  label(m: MetaMember): string;
  disabled: boolean;
  onChange(dimensions: string[]): void;
}

export function BreakoutsPanel(props: BreakoutsPanelProps) {
  const text = useAppText();
  const dims = props.dimensions;
  const move = (i: number, by: -1 | 1) => {
    const next = [...dims];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    props.onChange(next);
  };
  return (
    <fieldset className="svc-app-fieldset svc-app-breakouts" disabled={props.disabled} data-testid="breakouts">
      <legend>{text("breakouts")}</legend>
      <ol className="svc-app-breakout-list">
        {dims.map((d, i) => (
          <li key={i} className={`svc-app-breakout${d ? "" : " is-incomplete"}`} data-testid="breakout-row">
            <select
              className="svc-app-input"
              aria-label={text("breakoutMember", { n: i + 1 })}
              value={d}
              onChange={(e) => props.onChange(dims.map((x, k) => (k === i ? e.target.value : x)))}
            >
              <option value="">{text("pickDimension")}</option>
              {props.members.map((m) => (
                <option key={m.name} value={m.name} disabled={m.name !== d && dims.includes(m.name)}>
                  {props.label(m)}
                </option>
              ))}
            </select>
            <span className="svc-app-breakout-actions">
              <button type="button" className="svc-icon-button" aria-label={text("moveBreakoutUp")} disabled={i === 0} onClick={() => move(i, -1)}>
                ↑
              </button>
              <button
                type="button"
                className="svc-icon-button"
                aria-label={text("moveBreakoutDown")}
                disabled={i === dims.length - 1}
                onClick={() => move(i, 1)}
              >
                ↓
              </button>
              <button
                type="button"
                className="svc-icon-button"
                aria-label={text("removeBreakout")}
                onClick={() => props.onChange(dims.filter((_, k) => k !== i))}
              >
                ×
              </button>
            </span>
            {d ? null : (
              <span className="svc-app-filter-note" role="note" data-testid="breakout-incomplete">
                {text("filterIncomplete")}
              </span>
            )}
          </li>
        ))}
      </ol>
      <button type="button" className="svc-button is-small" onClick={() => props.onChange([...dims, ""])} data-testid="add-breakout">
        {text("addBreakout")}
      </button>
    </fieldset>
  );
}
