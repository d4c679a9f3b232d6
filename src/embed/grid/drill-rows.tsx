/**
 * The rows step of a drill-through: the explore choices (another dimension, over time), the
 * downloads the viewer may take, and one page of the rows behind the value, sorted on the server.
 */
import { t, tCount } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import type { QueryResult } from "../shell/platform-api";
import { titleOfColumn } from "../export/export-columns";
import { tableColumnsOf, type TableSort } from "../widgets/chart/table-model";
import { TableView } from "../widgets/chart/table-view";
import { DRILL_PAGE_SIZE } from "../widgets/query/compose-query";
import { useWidgetHost, type DrilldownRequest } from "./widget-host";
import { useDrillDownload } from "./use-drill-download";
import { sliceText } from "./drill-trail";
import { breakoutChoices, sliceFilters, timeChoice, type ExploreView } from "./drill-explore";
import type { SemanticQuery } from "../../schema/semantic-query";

export function DrillRows(props: {
  request: DrilldownRequest;
  /** The rows step's detail query (the clicked value's, or a value's of a later step). */
  detail: SemanticQuery;
  result: QueryResult;
  page: number;
  sort: TableSort | null;
  onPage: (page: number) => void;
  onSort: (sort: TableSort | null) => void;
  /** Another view of the slice was chosen; `label` is what the breadcrumb calls it. */
  onExplore: (view: ExploreView, label: string) => void;
  /** The dashboard's filters were set to the slice's values (the drill ends there). */
  onFiltered: () => void;
}) {
  const host = useWidgetHost();
  const locale = useEmbedStore((s) => s.locale);
  const { request, detail, result, page, sort } = props;
  const annotation = result.annotation;
  const memberTitle = titleOfColumn(request.member, annotation);
  const rows = result.data.slice(0, DRILL_PAGE_SIZE);
  const hasMore = result.data.length > DRILL_PAGE_SIZE;
  const columns = tableColumnsOf(rows, annotation, detail, null);
  const first = page * DRILL_PAGE_SIZE + 1;
  const last = page * DRILL_PAGE_SIZE + rows.length;
  const breakouts = breakoutChoices(detail, annotation);
  const overTime = timeChoice(detail, annotation);
  // The slice's values the dashboard has filter controls for: the dashboard can be filtered to them (and cleared there).
  const active = useEmbedStore((s) => s.filters);
  const toFilter = host.filterTo
    ? sliceFilters(detail, host.filterMembers).filter((f) => active[f.member]?.operator !== "equals" || active[f.member]?.value !== f.value)
    : [];
  const filterLabel = toFilter.map((f) => sliceText(f.member, [f.value], annotation)).join(", ");

  const { dataFormats, exporting, download } = useDrillDownload(request, detail, sort, memberTitle);

  return (
    <>
      {breakouts.length > 0 || overTime || toFilter.length > 0 || dataFormats.length > 0 ? (
        <div className="svc-drawer-tools">
          {breakouts.length > 0 || overTime || toFilter.length > 0 ? (
            <div className="svc-drawer-explore" role="group" aria-label={t(locale, "drilldown.explore")}>
              <span className="svc-drawer-tools-label">{t(locale, "drilldown.explore")}</span>
              {breakouts.map((dimension) => (
                <button
                  key={dimension}
                  type="button"
                  className="svc-button is-small"
                  data-testid={`drill-by-${dimension}`}
                  onClick={(e) => props.onExplore({ kind: "breakout", dimension }, e.currentTarget.textContent ?? dimension)}
                >
                  {t(locale, "drilldown.by", { dimension: titleOfColumn(dimension, annotation) })}
                </button>
              ))}
              {toFilter.length > 0 ? (
                <button
                  type="button"
                  className="svc-button is-small"
                  data-testid="drill-filter-dashboard"
                  onClick={() => {
                    host.filterTo!(toFilter);
                    props.onFiltered();
                  }}
                >
                  {t(locale, "drilldown.filterTo", { values: filterLabel })}
                </button>
              ) : null}
              {overTime ? (
                <button
                  type="button"
                  className="svc-button is-small"
                  data-testid="drill-over-time"
                  onClick={(e) => props.onExplore({ kind: "time", ...overTime }, e.currentTarget.textContent ?? overTime.granularity)}
                >
                  {t(locale, "drilldown.overTime", { grain: t(locale, `grain.${overTime.granularity}`) })}
                </button>
              ) : null}
            </div>
          ) : null}
          {dataFormats.length > 0 ? (
            <div className="svc-drawer-downloads" role="group" aria-label={t(locale, "export.menu")}>
              {dataFormats.map((format) => (
                <button
                  key={format}
                  type="button"
                  className="svc-button is-small"
                  data-testid={`drilldown-export-${format}`}
                  disabled={exporting}
                  onClick={() => void download(format)}
                >
                  {t(locale, `export.${format}`)}
                </button>
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
      <div className="svc-drawer-body">
        <TableView
          columns={columns}
          rows={rows}
          caption={memberTitle}
          sort={sort}
          onSortChange={props.onSort}
          footer={
            <div className="svc-pager">
              <span data-testid="drilldown-range">
                {rows.length === 0 ? tCount(locale, "rows", 0) : `${first}–${last}${hasMore ? "" : ` · ${tCount(locale, "rows", last)}`}`}
              </span>
              <span className="svc-pager-buttons">
                <button type="button" className="svc-button is-small" disabled={page === 0} onClick={() => props.onPage(Math.max(0, page - 1))}>
                  {t(locale, "pager.previous")}
                </button>
                <button type="button" className="svc-button is-small" disabled={!hasMore} onClick={() => props.onPage(page + 1)}>
                  {t(locale, "pager.next")}
                </button>
              </span>
            </div>
          }
        />
      </div>
    </>
  );
}
