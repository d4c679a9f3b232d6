/**
 * The report builder's sort and limit: the order by one of the query's columns (a time dimension
 * grouped by a part of time by its part column, which the query contract orders by), and the row limit.
 */
import type { SemanticQuery } from "../../shell/platform-api";
import { useAppText, type AppMessageKey } from "./app-messages";
import { TIME_PART_NAMES, timeColumnOf } from "./report-time";

/** The columns the report can be ordered by, each with its label. */
export function sortChoicesOf(q: SemanticQuery, label: (member: string) => string, text: (key: AppMessageKey) => string): [string, string][] {
  return [
    ...[...(q.measures ?? []), ...(q.dimensions ?? []).filter((d) => d !== "")].map((m): [string, string] => [m, label(m)]),
    ...(q.timeDimensions ?? []).map((t): [string, string] =>
      t.part ? [timeColumnOf(t), `${label(t.dimension)} (${text(TIME_PART_NAMES[t.part])})`] : [t.dimension, label(t.dimension)],
    ),
  ];
}

export interface SortPanelProps {
  query: SemanticQuery;
  label(member: string): string;
  disabled: boolean;
  onChange(edit: (q: SemanticQuery) => SemanticQuery): void;
}

export function SortPanel(props: SortPanelProps) {
  const text = useAppText();
  const q = props.query;
  const order = Array.isArray(q.order) ? q.order : Object.entries(q.order ?? {});
  const first = order[0];
  return (
    <fieldset className="svc-app-fieldset" disabled={props.disabled}>
      <legend>{text("sortAndLimit")}</legend>
      <div className="svc-app-inline">
        <select
          className="svc-app-input"
          aria-label={text("sortBy")}
          value={first?.[0] ?? ""}
          onChange={(e) => {
            const column = e.target.value;
            props.onChange((cur) => ({ ...cur, order: column ? { [column]: first?.[1] ?? "desc" } : {} }));
          }}
          data-testid="sort-member"
        >
          <option value="">{text("defaultOrder")}</option>
          {sortChoicesOf(q, props.label, text).map(([column, title]) => (
            <option key={column} value={column}>
              {title}
            </option>
          ))}
        </select>
        <select
          className="svc-app-input"
          aria-label={text("direction")}
          value={first?.[1] ?? "desc"}
          onChange={(e) => {
            const direction = e.target.value === "asc" ? "asc" : "desc";
            if (first) props.onChange((cur) => ({ ...cur, order: { [first[0]]: direction } }));
          }}
        >
          <option value="desc">{text("descending")}</option>
          <option value="asc">{text("ascending")}</option>
        </select>
      </div>
      <label className="svc-app-field">
        <span>{text("rowLimit")}</span>
        <input
          className="svc-app-input"
          type="number"
          min={1}
          max={50000}
          value={q.limit ?? ""}
          placeholder="500"
          onChange={(e) => {
            const raw = e.target.value;
            props.onChange((cur) => ({ ...cur, limit: raw ? Math.max(1, Math.min(50000, Number(raw))) : undefined }));
          }}
        />
      </label>
    </fieldset>
  );
}
