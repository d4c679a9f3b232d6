/**
 * The dashboard PDF as vector pages (A4 portrait): selectable text for the title, the filters
 * in effect and each widget's title; charts as vector drawings (vega's SVG through svg2pdf.js);
 * every table widget as a table of all its rows (jspdf-autotable, its header repeated on each
 * page); KPIs as figures in a row. Text is drawn in the embedded DejaVu Sans (pdf-fonts.ts).
 * jsPDF, svg2pdf.js and jspdf-autotable load with this module, on the first PDF export.
 */
import { jsPDF } from "jspdf";
import { autoTable } from "jspdf-autotable";
import { svg2pdf } from "svg2pdf.js";
import type { DashboardPdfModel, PdfBody, PdfSection } from "./pdf-document";
import { PDF_FONT_FAMILY, type PdfFontFiles } from "./pdf-fonts";

/** The colours of the page (the dashboard's theme: a dark dashboard gives dark pages, as its PNG does). */
export interface PdfColors {
  background: string;
  text: string;
  muted: string;
  border: string;
  /** Fill of a table's header row and of a KPI card. */
  panel: string;
}

export const LIGHT_PDF_COLORS: PdfColors = { background: "#ffffff", text: "#1f2328", muted: "#59636e", border: "#d1d9e0", panel: "#f6f8fa" };

const PAGE = { width: 595.28, height: 841.89, margin: 36 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 14;
const KPI_PER_ROW = 4;
const KPI_GAP = 10;
/** The tallest a chart or picture is drawn (a tall card's drawing would fill a page alone). */
const MAX_DRAWING_HEIGHT = 300;

interface Cursor {
  pdf: jsPDF;
  y: number;
  colors: PdfColors;
  measure: ScreenTextMeasure;
}

function paintBackground(pdf: jsPDF, colors: PdfColors) {
  if (colors.background.toLowerCase() === "#ffffff") return;
  pdf.setFillColor(colors.background);
  pdf.rect(0, 0, PAGE.width, PAGE.height, "F");
}

/** Moves to a new page unless `height` still fits below the cursor. */
function ensureRoom(cursor: Cursor, height: number) {
  if (cursor.y + height <= BOTTOM || cursor.y <= PAGE.margin + 1) return;
  cursor.pdf.addPage();
  cursor.y = PAGE.margin;
}

function writeLines(cursor: Cursor, text: string, options: { size: number; bold?: boolean; color: string; gap?: number }) {
  const { pdf } = cursor;
  pdf.setFont(PDF_FONT_FAMILY, options.bold ? "bold" : "normal");
  pdf.setFontSize(options.size);
  pdf.setTextColor(options.color);
  const lineHeight = options.size * 1.3;
  for (const line of pdf.splitTextToSize(text, CONTENT_WIDTH) as string[]) {
    ensureRoom(cursor, lineHeight);
    pdf.text(line, PAGE.margin, cursor.y + options.size);
    cursor.y += lineHeight;
  }
  cursor.y += options.gap ?? 0;
}

/** The section's title and subtitle, on the page where `keepWith` points of its body fit below them. */
function sectionHeading(cursor: Cursor, section: PdfSection, keepWith: number) {
  const headingHeight = (section.title ? 18 : 0) + (section.subtitle ? 14 : 0);
  // A heading never stays alone at the bottom of a page; a drawing moves to the next page with it.
  ensureRoom(cursor, headingHeight + keepWith);
  if (section.title) writeLines(cursor, section.title, { size: 12, bold: true, color: cursor.colors.text, gap: 2 });
  if (section.subtitle) writeLines(cursor, section.subtitle, { size: 9, color: cursor.colors.muted, gap: 2 });
}

/** Width of `text` in CSS pixels as the page drew it (`font` is a CSS font shorthand); null where nothing measures. */
export type ScreenTextMeasure = (text: string, font: string) => number | null;

/** The page's own text measure (a canvas), where there is one. */
export function canvasTextMeasure(): ScreenTextMeasure {
  let context: CanvasRenderingContext2D | null | undefined;
  return (text, font) => {
    if (context === undefined) {
      try {
        context = typeof document === "undefined" ? null : document.createElement("canvas").getContext("2d");
      } catch {
        context = null;
      }
    }
    if (!context) return null;
    context.font = font;
    return context.measureText(text).width;
  };
}

/**
 * The SVG element of a drawing with every text in the PDF's font (vega names the page's font
 * family). Vega laid the drawing out with the page's font; a text wider in the PDF's font is
 * drawn smaller to take the room the layout gave it. Centred and end-anchored text is placed
 * from its width in the PDF's font (svg2pdf would ask the browser, which does not have it).
 */
function svgElementOf(svg: string, pdf: jsPDF, measure: ScreenTextMeasure): SVGSVGElement | null {
  const parsed = new DOMParser().parseFromString(svg, "image/svg+xml");
  const root = parsed.documentElement;
  if (!(root instanceof SVGSVGElement) || parsed.querySelector("parsererror")) return null;
  for (const text of root.querySelectorAll("text")) fitText(text, pdf, measure);
  for (const node of [root, ...root.querySelectorAll("[font-family], [font-weight], [style*='font-family']")]) {
    if (node.hasAttribute("font-family")) node.setAttribute("font-family", PDF_FONT_FAMILY);
    // The PDF has the font in two weights: a numeric weight is one of them.
    const weight = node.getAttribute("font-weight");
    if (weight) node.setAttribute("font-weight", isBold(weight) ? "bold" : "normal");
    const style = node.getAttribute("style");
    if (style?.includes("font-family")) node.setAttribute("style", style.replace(/font-family\s*:[^;]+/g, `font-family: ${PDF_FONT_FAMILY}`));
  }
  root.setAttribute("font-family", PDF_FONT_FAMILY);
  // Not cut at the drawing's edge: a label a little wider in the PDF's font reaches into the page's margin.
  root.setAttribute("overflow", "visible");
  return root;
}

const isBold = (weight: string) => weight === "bold" || weight === "bolder" || Number(weight) >= 600;

function inherited(element: Element, attribute: string): string | null {
  return element.closest(`[${attribute}]`)?.getAttribute(attribute) ?? null;
}

/** Sizes a text to the width the page gave it, and rewrites a middle- or end-anchored text as start-anchored at the same place. */
function fitText(text: Element, pdf: jsPDF, measure: ScreenTextMeasure) {
  const anchor = inherited(text, "text-anchor");
  let size = Number.parseFloat(inherited(text, "font-size") ?? "") || 10;
  const weight = inherited(text, "font-weight") ?? "normal";
  const family = inherited(text, "font-family") ?? "sans-serif";
  pdf.setFont(PDF_FONT_FAMILY, isBold(weight) ? "bold" : "normal");
  const spans = [...text.querySelectorAll("tspan")];
  const parts = spans.length > 0 ? spans : [text];
  const widest = Math.max(...parts.map((part) => pdf.getStringUnitWidth(part.textContent ?? "") * size));
  const onScreen = Math.max(0, ...parts.map((part) => measure(part.textContent ?? "", `${weight} ${size}px ${family}`) ?? 0));
  if (onScreen > 0 && widest > onScreen * 1.02) {
    size = (size * onScreen) / widest;
    text.setAttribute("font-size", `${size.toFixed(2)}px`);
    for (const span of spans) span.removeAttribute("font-size");
  }
  if (anchor !== "middle" && anchor !== "end") return;
  for (const part of parts) {
    const width = pdf.getStringUnitWidth(part.textContent ?? "") * size;
    const x = Number.parseFloat(part.getAttribute("x") ?? "0") || 0;
    part.setAttribute("x", String(x - (anchor === "middle" ? width / 2 : width)));
  }
  text.setAttribute("text-anchor", "start");
  for (const span of spans) span.removeAttribute("text-anchor");
}

async function drawChart(cursor: Cursor, section: PdfSection, svg: string) {
  const element = svgElementOf(svg, cursor.pdf, cursor.measure);
  if (!element) return;
  const width = Number.parseFloat(element.getAttribute("width") ?? "") || CONTENT_WIDTH;
  const height = Number.parseFloat(element.getAttribute("height") ?? "") || width / 2;
  const scale = Math.min(1, CONTENT_WIDTH / width, MAX_DRAWING_HEIGHT / height);
  sectionHeading(cursor, section, height * scale);
  ensureRoom(cursor, height * scale);
  // svg2pdf sets the font, size and colour only where an element changes them from its parent,
  // and takes SVG's initial values (normal weight, 16 px, black) as what the document has.
  cursor.pdf.setFont(PDF_FONT_FAMILY, "normal");
  cursor.pdf.setFontSize(16);
  cursor.pdf.setTextColor(0, 0, 0);
  await svg2pdf(element, cursor.pdf, { x: PAGE.margin, y: cursor.y, width: width * scale, height: height * scale });
  cursor.y += height * scale + 16;
}

/** What jspdf-autotable leaves on the document after a table (its own typings leave the document untyped). */
interface AutoTableDocument extends jsPDF {
  lastAutoTable?: { finalY?: number };
}

/** jsPDF's page events, present on its internals but absent from its typings. */
type PdfInternals = jsPDF["internal"] & { events: { subscribe(name: string, handler: () => void): void } };

function drawTable(cursor: Cursor, section: PdfSection, body: Extract<PdfBody, { kind: "table" }>) {
  sectionHeading(cursor, section, 60);
  const { colors } = cursor;
  autoTable(cursor.pdf, {
    head: [body.columns.map((c) => c.title)],
    body: body.rows,
    startY: cursor.y,
    margin: { left: PAGE.margin, right: PAGE.margin, top: PAGE.margin, bottom: PAGE.height - BOTTOM },
    theme: "plain",
    styles: { font: PDF_FONT_FAMILY, fontSize: 8, cellPadding: 3, textColor: colors.text, lineColor: colors.border, overflow: "linebreak" },
    headStyles: { fontStyle: "bold", fillColor: colors.panel, lineWidth: { bottom: 0.75 } },
    bodyStyles: { lineWidth: { bottom: 0.25 } },
    columnStyles: Object.fromEntries(body.columns.map((c, i) => [i, { halign: c.numeric ? "right" : "left" }])),
    didParseCell: (data) => {
      if (data.section === "head" && body.columns[data.column.index]?.numeric) data.cell.styles.halign = "right";
    },
  });
  cursor.y = ((cursor.pdf as AutoTableDocument).lastAutoTable?.finalY ?? cursor.y) + 18;
}

function drawText(cursor: Cursor, section: PdfSection, paragraphs: string[]) {
  sectionHeading(cursor, section, 40);
  for (const paragraph of paragraphs) writeLines(cursor, paragraph, { size: 10, color: cursor.colors.text, gap: 5 });
  cursor.y += 10;
}

function drawImage(cursor: Cursor, section: PdfSection, body: Extract<PdfBody, { kind: "image" }>) {
  const scale = Math.min(1, CONTENT_WIDTH / body.width, MAX_DRAWING_HEIGHT / body.height);
  sectionHeading(cursor, section, body.height * scale);
  ensureRoom(cursor, body.height * scale);
  const format = body.dataUrl.startsWith("data:image/jpeg") ? "JPEG" : "PNG";
  cursor.pdf.addImage(body.dataUrl, format, PAGE.margin, cursor.y, body.width * scale, body.height * scale);
  cursor.y += body.height * scale + 16;
}

/** Consecutive KPIs side by side, up to four a row, each a card with its title, figure and comparison. */
function drawFigures(cursor: Cursor, sections: PdfSection[]) {
  const { pdf, colors } = cursor;
  for (let start = 0; start < sections.length; start += KPI_PER_ROW) {
    const row = sections.slice(start, start + KPI_PER_ROW);
    const width = (CONTENT_WIDTH - KPI_GAP * (KPI_PER_ROW - 1)) / KPI_PER_ROW;
    const lines = row.map((section) => {
      pdf.setFontSize(8);
      const note = section.body.kind === "figure" && section.body.note ? (pdf.splitTextToSize(section.body.note, width - 16) as string[]) : [];
      pdf.setFont(PDF_FONT_FAMILY, "bold");
      pdf.setFontSize(9);
      const title = pdf.splitTextToSize(section.title ?? "", width - 16) as string[];
      return { title, note };
    });
    const height =
      Math.max(
        ...row.map((section, i) => {
          const body = section.body as Extract<PdfBody, { kind: "figure" }>;
          return lines[i]!.title.length * 11.7 + 20 + (body.change ? 13 : 0) + lines[i]!.note.length * 10.4;
        }),
      ) + 20;
    ensureRoom(cursor, height);
    row.forEach((section, index) => {
      const body = section.body as Extract<PdfBody, { kind: "figure" }>;
      const x = PAGE.margin + index * (width + KPI_GAP);
      pdf.setDrawColor(colors.border);
      pdf.setFillColor(colors.panel);
      pdf.roundedRect(x, cursor.y, width, height, 4, 4, "FD");
      let y = cursor.y + 16;
      pdf.setFont(PDF_FONT_FAMILY, "bold");
      pdf.setFontSize(9);
      pdf.setTextColor(colors.muted);
      pdf.text(lines[index]!.title, x + 8, y, { lineHeightFactor: 1.3 });
      y += lines[index]!.title.length * 11.7 + 14;
      // The figure on one line: smaller where it is wider than its card.
      pdf.setFontSize(Math.min(16, (16 * (width - 16)) / Math.max(1, pdf.getStringUnitWidth(body.value) * 16)));
      pdf.setTextColor(colors.text);
      pdf.text(body.value, x + 8, y);
      if (body.change) {
        y += 14;
        pdf.setFont(PDF_FONT_FAMILY, "normal");
        pdf.setFontSize(9);
        pdf.setTextColor(body.trend === "up" ? "#1a7f37" : body.trend === "down" ? "#cf222e" : colors.muted);
        pdf.text((body.trend === "up" ? "▲ " : body.trend === "down" ? "▼ " : "") + body.change, x + 8, y);
      }
      if (lines[index]!.note.length) {
        pdf.setFont(PDF_FONT_FAMILY, "normal");
        pdf.setFontSize(8);
        pdf.setTextColor(colors.muted);
        pdf.text(lines[index]!.note, x + 8, y + 12, { lineHeightFactor: 1.3 });
      }
    });
    cursor.y += height + 14;
  }
}

/** Page numbers at the foot of every page ("2 / 3"). */
function numberPages(pdf: jsPDF, colors: PdfColors) {
  const count = pdf.getNumberOfPages();
  pdf.setFont(PDF_FONT_FAMILY, "normal");
  pdf.setFontSize(8);
  pdf.setTextColor(colors.muted);
  for (let page = 1; page <= count; page++) {
    pdf.setPage(page);
    pdf.text(`${page} / ${count}`, PAGE.width - PAGE.margin, PAGE.height - PAGE.margin / 2, { align: "right" });
  }
}

/** The PDF of `model`, as bytes. */
export async function buildVectorPdf(
  model: DashboardPdfModel,
  fonts: PdfFontFiles,
  colors: PdfColors = LIGHT_PDF_COLORS,
  measure: ScreenTextMeasure = canvasTextMeasure(),
): Promise<ArrayBuffer> {
  const pdf = new jsPDF({ unit: "pt", format: "a4", orientation: "portrait", compress: true });
  pdf.addFileToVFS("DejaVuSans.ttf", fonts.regular);
  pdf.addFileToVFS("DejaVuSans-Bold.ttf", fonts.bold);
  pdf.addFont("DejaVuSans.ttf", PDF_FONT_FAMILY, "normal");
  pdf.addFont("DejaVuSans-Bold.ttf", PDF_FONT_FAMILY, "bold");
  pdf.setProperties({ title: model.title });
  // Every page, also those a long table adds, gets the theme's background before its content.
  (pdf.internal as PdfInternals).events.subscribe("addPage", () => paintBackground(pdf, colors));
  paintBackground(pdf, colors);

  const cursor: Cursor = { pdf, y: PAGE.margin, colors, measure };
  writeLines(cursor, model.title, { size: 18, bold: true, color: colors.text, gap: 2 });
  if (model.description) writeLines(cursor, model.description, { size: 10, color: colors.muted, gap: 2 });
  writeLines(cursor, model.filtersLine, { size: 9, color: colors.muted, gap: 14 });

  for (let index = 0; index < model.sections.length; index++) {
    const section = model.sections[index]!;
    const body = section.body;
    if (body.kind === "figure") {
      let end = index;
      while (model.sections[end + 1]?.body.kind === "figure") end++;
      drawFigures(cursor, model.sections.slice(index, end + 1));
      index = end;
    } else if (body.kind === "chart") await drawChart(cursor, section, body.svg);
    else if (body.kind === "table") drawTable(cursor, section, body);
    else if (body.kind === "text") drawText(cursor, section, body.paragraphs);
    else drawImage(cursor, section, body);
  }
  numberPages(pdf, colors);
  return pdf.output("arraybuffer");
}
