/**
 * The report builder's query panel: the report's name, its view, the measures, the calculated
 * fields (report-calculated-fields-panel.tsx), the breakouts,
 * the time panel, the calculations, the filters and the sort. Edits go to the draft as they are (a half-made filter
 * too); the builder runs and saves the complete part of it.
 */
import type { SemanticQuery } from "../../shell/platform-api";
import type { MetaMember, MetaSource } from "./app-api";
import { useAppText } from "./app-messages";
import { BreakoutsPanel } from "./report-breakouts-panel";
import { CalculatedFieldsPanel } from "./report-calculated-fields-panel";
import type { CalculatedQuery } from "./report-calculations";
import { CalculationsPanel } from "./report-calculations-panel";
import { FiltersPanel } from "./report-filters-panel";
import { withCalculatedMembers } from "./report-formula";
import { SortPanel } from "./report-sort-panel";
import { TimePanel } from "./report-time-panel";
import type { ReportDraft } from "./use-report-draft";

export interface QueryPanelProps {
  draft: ReportDraft;
  sources: readonly MetaSource[];
  view: MetaSource | undefined;
  label(m: MetaMember | string): string;
  showMemberNames: boolean;
  canEdit: boolean;
  edit(next: Partial<ReportDraft>): void;
  editQuery(fn: (q: SemanticQuery) => SemanticQuery): void;
  toggle(list: "measures" | "dimensions", name: string): void;
  /** The report's workbook (it records the report's calculated fields). */
  workbookId: number | null;
  /** The calculations left out of the query, and why. */
  leftOut: CalculatedQuery["leftOut"];
}

export function QueryPanel(props: QueryPanelProps) {
  const text = useAppText();
  const { draft, view, label, canEdit } = props;
  const q = draft.query;
  // The draft's calculated fields are members of the view here: measures, breakouts, filters.
  const shown = view ? withCalculatedMembers(view, q.calculatedFields) : undefined;
  const timeMembers = view ? view.dimensions.filter((d) => d.type === "time") : [];
  const plainDims = shown ? shown.dimensions.filter((d) => d.type !== "time") : [];
  const members = shown ? [...shown.dimensions, ...shown.measures] : [];
  const checks = (list: "measures", of: readonly MetaMember[]) =>
    of.map((m) => (
      <label key={m.name} className="svc-app-check-row" title={m.description ?? ""}>
        <input type="checkbox" checked={q[list]?.includes(m.name) ?? false} onChange={() => props.toggle(list, m.name)} data-member={m.name} />
        {label(m)}
      </label>
    ));
  return (
    <aside className="svc-app-builder-panel" aria-label={text("queryPanel")}>
      <label className="svc-app-field">
        <span>{text("reportName")}</span>
        <input
          className="svc-app-input"
          value={draft.name}
          disabled={!canEdit}
          onChange={(e) => props.edit({ name: e.target.value })}
          data-testid="report-name"
        />
      </label>
      <label className="svc-app-field">
        <span>{text("viewLabel")}</span>
        <select
          className="svc-app-input"
          value={view?.name ?? ""}
          disabled={!canEdit}
          onChange={(e) => props.edit({ view: e.target.value, query: {} })}
          data-testid="view-select"
        >
          {props.sources.map((s) => (
            <option key={s.name} value={s.name}>
              {props.showMemberNames ? `${s.title} (${s.name})` : s.title}
            </option>
          ))}
        </select>
        {view?.description ? <small className="svc-app-muted">{view.description}</small> : null}
      </label>
      <fieldset className="svc-app-fieldset" disabled={!canEdit}>
        <legend>{text("measures")}</legend>
        {checks("measures", shown?.measures ?? [])}
      </fieldset>
      <CalculatedFieldsPanel source={view} fields={q.calculatedFields ?? []} disabled={!canEdit} editQuery={props.editQuery} workbookId={props.workbookId} />
      <BreakoutsPanel
        dimensions={q.dimensions ?? []}
        members={plainDims}
        label={label}
        disabled={!canEdit}
        onChange={(dimensions) => props.editQuery((cur) => ({ ...cur, dimensions }))}
      />
      {timeMembers.length ? (
        <TimePanel
          members={timeMembers}
          value={q.timeDimensions?.[0]}
          label={label}
          disabled={!canEdit}
          onChange={(td) => props.editQuery((cur) => ({ ...cur, timeDimensions: td ? [td] : [] }))}
        />
      ) : null}
      <CalculationsPanel
        value={{ compare: draft.compare, percentOfTotal: draft.percentOfTotal }}
        leftOut={props.leftOut}
        disabled={!canEdit}
        onChange={(next) => props.edit(next)}
      />
      <FiltersPanel
        filters={q.filters ?? []}
        members={members}
        label={label}
        disabled={!canEdit}
        onChange={(filters) => props.editQuery((cur) => ({ ...cur, filters }))}
      />
      <SortPanel query={q} label={label} disabled={!canEdit} onChange={props.editQuery} />
    </aside>
  );
}
