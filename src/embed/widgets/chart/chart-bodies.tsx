/**
 * What a CHART widget shows for a report of kind `kpi` or `html`, from its query's result:
 * the headline figure against the period before, and the report's HTML template filled with the
 * first row, each value formatted as its column is (chart-widget.tsx picks the body by kind).
 */
import type { ReportSnapshot } from "../../../schema/dashboard";
import type { QueryAnnotation, SemanticQuery } from "../../shell/platform-api";
import { titleOfColumn } from "../../export/export-columns";
import { resultColumnOf } from "../../export/result-columns";
import { formatCell, type CellFormatContext } from "../query/format-cell";
import { fillHtmlTemplate } from "./html-template";
import { HtmlView } from "./html-view";
import { computeKpi } from "./kpi";
import { KpiView } from "./kpi-view";

type Row = Record<string, unknown>;

/** A KPI: `measure`'s latest figure, compared as the report's period comparisons say. */
export function KpiBody(props: {
  rows: Row[];
  measure: string;
  snapshot: ReportSnapshot;
  composed: SemanticQuery;
  annotation: QueryAnnotation | undefined;
  ctx: CellFormatContext;
  onDrill: (member: string, value: unknown, row: Row) => void;
}) {
  const { rows, measure, snapshot, composed, annotation, ctx } = props;
  const timeDimension = composed.timeDimensions?.find((td) => td.granularity);
  const timeColumn = timeDimension ? `${timeDimension.dimension}.${timeDimension.granularity}` : null;
  const figures = computeKpi(rows, measure, snapshot.periodComparisons, timeColumn ?? undefined);
  const measureColumn = resultColumnOf(measure, annotation);
  const annotationFormat = measureColumn?.format;
  const baseFormat =
    snapshot.preferences?.columnFormats?.[measure] ?? (annotationFormat === "currency" || annotationFormat === "percent" ? { type: annotationFormat } : null);
  // A headline figure in the thousands reads better without cents.
  const large = figures.value !== null && Math.abs(figures.value) >= 1000;
  const format = baseFormat ? { ...baseFormat, decimalPlaces: baseFormat.decimalPlaces ?? (large && baseFormat.type !== "percent" ? 0 : undefined) } : null;
  const column = { key: measure, type: "number", format, annotationFormat, signed: measureColumn?.signed };
  const latestRow = timeColumn ? [...rows].sort((a, b) => String(b[timeColumn] ?? "").localeCompare(String(a[timeColumn] ?? "")))[0] : rows[0];
  return (
    <KpiView
      figures={figures}
      formatted={formatCell(figures.value, column, ctx)}
      formattedPrevious={figures.previous === null ? null : formatCell(figures.previous, column, ctx)}
      measureTitle={titleOfColumn(measure, annotation)}
      onDrill={() => props.onDrill(measure, figures.value, latestRow ?? {})}
    />
  );
}

/** The report's HTML template filled with the first row (a renamed column answers to its report name too). */
export function HtmlBody(props: {
  html: string;
  rows: Row[];
  aliases: Record<string, string>;
  annotation: QueryAnnotation | undefined;
  snapshot: ReportSnapshot;
  ctx: CellFormatContext;
  title: string;
}) {
  const { rows, aliases, annotation, snapshot, ctx } = props;
  const row = rows[0] ? { ...rows[0], ...Object.fromEntries(Object.entries(aliases).map(([from, to]) => [from, rows[0]![to]])) } : undefined;
  const filled = fillHtmlTemplate(
    props.html,
    row,
    (placeholder, value) => {
      const member = aliases[placeholder] ?? placeholder;
      const column = resultColumnOf(member, annotation);
      return formatCell(
        value,
        {
          key: member,
          type: column?.type,
          annotationFormat: column?.format,
          signed: column?.signed,
          timePart: column?.timePart,
          format: snapshot.preferences?.columnFormats?.[placeholder] ?? null,
        },
        ctx,
      );
    },
    (placeholder) => titleOfColumn(aliases[placeholder] ?? placeholder, annotation),
  );
  return <HtmlView body={filled} title={props.title} />;
}
