/**
 * Drill-through from a clicked value: a modal side panel. It opens on the rows behind the value
 * (same filters, same row-level security, on the server; one page at a time, sorted by a header
 * click, downloadable when exports are allowed); from there the same measure broken out by
 * another dimension or over time at a finer grain, and from any of those a value's rows again.
 * A breadcrumb goes back; each step is reported to the host as a drilldown.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { CloseIcon } from "../ui/icons";
import type { QueryResult } from "../shell/platform-api";
import type { QueryAnnotation } from "../../schema/semantic-query";
import { titleOfColumn } from "../export/export-columns";
import { resultColumnOf } from "../export/result-columns";
import type { TableSort } from "../widgets/chart/table-model";
import { formatCell } from "../widgets/query/format-cell";
import { drillPageQuery, grainEnd } from "../widgets/query/compose-query";
import { useWidgetQuery } from "../widgets/query/use-widget-query";
import { WidgetSkeleton } from "./widget-frame";
import { useWidgetHost, type DrilldownRequest } from "./widget-host";
import { breakoutQuery, rowsOfValue, timeQuery, type DrillStep, type ExploreView } from "./drill-explore";
import { DrillBreakdown } from "./drill-breakdown";
import { DrillTrail, drillStepTitle, sliceText } from "./drill-trail";
import { DrillRows } from "./drill-rows";
import "../ui/buttons.css";
import "./drilldown-panel.css";

export function DrilldownPanel(props: { request: DrilldownRequest; onClose: () => void }) {
  const host = useWidgetHost();
  const locale = useEmbedStore((s) => s.locale);
  const timezone = useEmbedStore((s) => s.timezone);
  const closeRef = useRef<HTMLButtonElement>(null);
  const { request, onClose } = props;
  // The steps taken from this click; a new click starts again from its rows.
  const [trail, setTrail] = useState<{ of: DrilldownRequest; steps: DrillStep[] }>({ of: request, steps: [] });
  const steps = useMemo<DrillStep[]>(
    () => [{ view: { kind: "rows" }, query: request.detailQuery }, ...(trail.of === request ? trail.steps : [])],
    [request, trail],
  );
  const step = steps[steps.length - 1]!;
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<TableSort | null>(null);
  const query = useMemo(() => (step.view.kind === "rows" ? drillPageQuery(step.query, page, sort) : step.query), [step, page, sort]);
  // In the viewer's locale: column titles and values (statuses, country names) by their labels.
  // Each answer carries the step and the request it answers: while another step's answer is on its
  // way the last one (a breakout's rows, say) is not shown as this step's, and a new page or order
  // of the same step keeps its rows on screen until the next arrive.
  const stepKey = `${request.widgetId}:${steps.length}:${JSON.stringify(step.query)}`;
  const queryKey = `${locale}:${JSON.stringify(query)}`;
  const result = useWidgetQuery<{ stepKey: string; queryKey: string; answer: QueryResult }>(queryKey, (signal) =>
    host.runQuery({ query, locale }, signal).then((answer) => ({ stepKey, queryKey, answer })),
  );

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [onClose]);

  /** Goes to the steps given (a new one, or back along the breadcrumb), on their first page. */
  const goTo = (next: DrillStep[]) => {
    setTrail({ of: request, steps: next.slice(1) });
    setPage(0);
    setSort(null);
  };
  const push = (next: DrillStep) => {
    goTo([...steps, next]);
    host.drilled?.({ member: request.member, ...(next.value !== undefined ? { value: next.value } : {}), widgetId: request.widgetId });
  };
  // The detail query of the rows step a breakout or time step was taken from.
  const rowsStep = steps.findLast((s) => s.view.kind === "rows")!;
  const explore = (view: ExploreView, label: string) =>
    push({
      view,
      label,
      query: view.kind === "breakout" ? breakoutQuery(rowsStep.query, request.member, view.dimension) : timeQuery(rowsStep.query, request.member, view),
    });
  const openValue = (value: unknown, label: string) =>
    push({ view: { kind: "rows" }, query: rowsOfValue(rowsStep.query, step.view, value, grainEnd), label, value });

  // The header names the slice's members by the titles of the first rows (a later step's result lists other columns).
  const [first, setFirst] = useState<{ of: DrilldownRequest; annotation: QueryAnnotation } | null>(null);
  const shown = result.status === "ready" && result.data?.stepKey === stepKey ? result.data.answer : undefined;
  const fresh = !!shown && result.data?.queryKey === queryKey && !result.refreshing;
  const firstResult = steps.length === 1 && fresh ? shown : undefined;
  useEffect(() => {
    if (firstResult) setFirst({ of: request, annotation: firstResult.annotation });
  }, [firstResult, request]);
  const annotation = first?.of === request ? first.annotation : shown?.annotation;
  const memberTitle = titleOfColumn(request.member, annotation);
  const valueColumn = { key: request.member, type: "number", annotationFormat: resultColumnOf(request.member, annotation)?.format };
  const drilledValue = formatCell(request.value, valueColumn, { locale, timezone });
  // The slice drilled into: the dimension values of the clicked row (equals filters the detail query added).
  const slice = (request.detailQuery.filters ?? []).flatMap((f) =>
    "member" in f && f.operator === "equals" && (request.detailQuery.dimensions ?? []).includes(f.member)
      ? [sliceText(f.member, f.values ?? [], annotation)]
      : [],
  );

  return (
    <div className="svc-drawer-backdrop" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <aside
        className="svc-drawer"
        role="dialog"
        aria-modal="true"
        aria-labelledby="svc-drill-title"
        data-testid="drilldown-panel"
        data-step={step.view.kind}
        data-state={fresh ? "ready" : result.status === "error" ? "error" : "loading"}
        // A new page or order is on its way while the rows shown are the previous ones.
        aria-busy={result.status === "loading" || result.refreshing}
      >
        <header className="svc-drawer-header">
          <div className="svc-drawer-heading">
            <p className="svc-drawer-eyebrow">{request.title}</p>
            <h2 id="svc-drill-title">{drillStepTitle(locale, step, memberTitle)}</h2>
            <p className="svc-drawer-context" data-testid="drilldown-context">
              <span className="svc-drawer-figure">
                {memberTitle} {drilledValue}
              </span>
              {slice.map((s) => (
                <span key={s} className="svc-drawer-chip">
                  {s}
                </span>
              ))}
            </p>
            {steps.length > 1 ? <DrillTrail steps={steps} onBack={(i) => goTo(steps.slice(0, i + 1))} /> : null}
          </div>
          <button ref={closeRef} type="button" className="svc-icon-button" onClick={props.onClose} aria-label={t(locale, "close")}>
            <CloseIcon size={16} />
          </button>
        </header>
        {shown ? (
          step.view.kind === "rows" ? (
            <DrillRows
              request={request}
              detail={step.query}
              result={shown}
              page={page}
              sort={sort}
              onPage={setPage}
              onSort={(next) => {
                setSort(next);
                setPage(0);
              }}
              onExplore={explore}
              onFiltered={onClose}
            />
          ) : (
            <DrillBreakdown view={step.view} query={step.query} result={shown} member={request.member} onValue={openValue} />
          )
        ) : (
          <div className="svc-drawer-body">
            {result.status === "error" ? (
              <div className="svc-widget-error" role="alert">
                <p className="svc-widget-error-title">{t(locale, "error.QueryFailed")}</p>
                <p className="svc-widget-error-detail">{result.error?.message}</p>
                <button type="button" className="svc-button is-small" onClick={result.retry}>
                  {t(locale, "retry")}
                </button>
              </div>
            ) : (
              <WidgetSkeleton shape="table" label={t(locale, "loading")} />
            )}
          </div>
        )}
      </aside>
    </div>
  );
}
