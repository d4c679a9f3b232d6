/**
 * What the dashboard PDF holds, as plain data: the dashboard's title, the filters in effect and
 * one section per widget in reading order. Collected from the dashboard on screen
 * (dashboard-pdf-content.ts), drawn as vector pages by vector-pdf.ts.
 */

/** A widget's content in the PDF. */
export type PdfBody =
  /** A vega drawing as SVG markup (drawn as vector paths and text). */
  | { kind: "chart"; svg: string }
  /** A table of every row the widget holds, cells formatted as on screen. */
  | { kind: "table"; columns: { title: string; numeric: boolean }[]; rows: string[][] }
  /** A headline figure (KPI): the value, its change and comparison line. */
  | { kind: "figure"; value: string; change: string | null; trend: "up" | "down" | "flat"; note: string | null }
  /** Paragraphs of text (a TEXT widget, an AI summary). */
  | { kind: "text"; paragraphs: string[] }
  /** A picture (an HTML report, a drawing without SVG): a PNG or JPEG data URL and its size in CSS pixels. */
  | { kind: "image"; dataUrl: string; width: number; height: number };

export interface PdfSection {
  widgetId: string;
  title: string | null;
  subtitle: string | null;
  body: PdfBody;
}

export interface DashboardPdfModel {
  title: string;
  description: string | null;
  /** The filters in effect, as the viewer reads them ("Status: completed"); one line. */
  filtersLine: string;
  sections: PdfSection[];
}

/** Every text the PDF will draw (titles, cells, the SVG drawings' text), to check the font covers it. */
export function textsOf(model: DashboardPdfModel): string[] {
  const texts = [model.title, model.description ?? "", model.filtersLine];
  for (const section of model.sections) {
    texts.push(section.title ?? "", section.subtitle ?? "");
    const body = section.body;
    if (body.kind === "table") texts.push(...body.columns.map((c) => c.title), ...body.rows.flat());
    else if (body.kind === "figure") texts.push(body.value, body.change ?? "", body.note ?? "");
    else if (body.kind === "text") texts.push(...body.paragraphs);
    else if (body.kind === "chart") texts.push(body.svg.replace(/<[^>]*>/g, " "));
  }
  return texts;
}
