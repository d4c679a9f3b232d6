/**
 * The dashboard's export menu: a picture of the whole dashboard as PNG, or a PDF of vector pages
 * (selectable text, charts as vector drawings, every table's rows), only in the formats the
 * viewer may export. The platform is asked first (the session's export grant); a refusal saves
 * nothing and is reported as a non-fatal `ExportFailed`.
 */
import { useCallback, useState, type RefObject } from "react";
import { EVENT_TYPES, type DownloadFormat } from "../../../protocol";
import type { EmbedBridge } from "../../bridge";
import type { DashboardWidget } from "../../../schema/dashboard";
import type { PrintableRegistry } from "../../grid/printables";
import { elementToPng, pngToPdf } from "../../export/image-export";
import { collectDashboardPdf, filtersLineOf } from "../../export/dashboard-pdf-content";
import { textsOf } from "../../export/pdf-document";
import { fontCovers, loadPdfFonts } from "../../export/pdf-fonts";
import type { PdfColors } from "../../export/vector-pdf";
import { filterConfigOf } from "../../widgets/filter/filter-config";
import { tabsOf } from "../../widgets/tabs-container/tabs-config";
import { useEmbedServices } from "../../shell/embed-context";
import { fileNameFor, saveBlob, saveUrl } from "../../export/save-file";
import { t } from "../../i18n";
import { useEmbedStore } from "../../state/use-embed-store";
import { DownloadIcon, ImageIcon } from "../../ui/icons";

/** The picture formats of the dashboard menu, in the order shown. */
const PICTURE_FORMATS = ["png", "pdf"] as const satisfies readonly DownloadFormat[];
const ICONS = { png: <ImageIcon size={14} />, pdf: <DownloadIcon size={14} /> };

/** The picture formats of `offered`, in the menu's order. */
export function dashboardExportFormats(offered: readonly DownloadFormat[]): ("png" | "pdf")[] {
  return PICTURE_FORMATS.filter((format) => offered.includes(format));
}

/** The PDF's colours: the theme's (a dark dashboard gives dark pages, as its PNG does). */
function pdfColors(): PdfColors {
  const style = getComputedStyle(document.documentElement);
  const color = (name: string, fallback: string) => {
    const value = style.getPropertyValue(name).trim();
    return /^#[0-9a-f]{6}$/i.test(value) ? value : fallback;
  };
  return {
    background: color("--svc-surface", "#ffffff"),
    text: color("--svc-text", "#111827"),
    muted: color("--svc-text-muted", "#6b7280"),
    border: color("--svc-border-strong", "#d1d5db"),
    panel: color("--svc-surface-sunken", "#f3f4f6"),
  };
}

/** The label a filter control shows for its member (its translated label, else the member's name). */
function filterLabels(widgets: readonly DashboardWidget[]): (member: string) => string {
  const labels = new Map<string, string>();
  const visit = (list: readonly DashboardWidget[]) => {
    for (const widget of list) {
      const config = widget.type === "FILTER" ? filterConfigOf(widget) : null;
      if (config?.label && !labels.has(config.member)) labels.set(config.member, config.label);
      if (widget.type === "TABS_CONTAINER") for (const tab of tabsOf(widget)) visit(tab.widgets);
    }
  };
  visit(widgets);
  return (member) => labels.get(member) ?? member.split(".")[1]!.replace(/_/g, " ");
}

/**
 * The dashboard as vector pages; for an app dashboard, or where the text has a script the PDF's
 * font lacks (Japanese), the picture of the dashboard in a PDF instead (decisions.md "PDF export: vector pages and their font").
 */
async function dashboardPdf(input: {
  element: HTMLElement;
  title: string;
  description: string | null;
  filtersLine: string;
  printables: PrintableRegistry;
  background: string;
}): Promise<Blob> {
  const model = await collectDashboardPdf(input);
  // An app dashboard (one frame, no widgets) and text the font cannot draw: the picture.
  if (model.sections.length === 0 || !fontCovers(textsOf(model))) return pngToPdf(await elementToPng(input.element, input.background), input.title);
  const [{ buildVectorPdf }, fonts] = await Promise.all([import("../../export/vector-pdf"), loadPdfFonts()]);
  return new Blob([await buildVectorPdf(model, fonts, pdfColors())], { type: "application/pdf" });
}

export function DashboardExportMenu(props: {
  formats: readonly ("png" | "pdf")[];
  title: string;
  description: string | null;
  widgets: readonly DashboardWidget[];
  printables: PrintableRegistry;
  valueLabel: (member: string, value: unknown) => string | undefined;
  contentRef: RefObject<HTMLElement | null>;
  bridge: EmbedBridge;
  authorize: (format: DownloadFormat) => Promise<void>;
}) {
  const { title, description, widgets, printables, valueLabel, contentRef, bridge, authorize } = props;
  const { store } = useEmbedServices();
  const locale = useEmbedStore((s) => s.locale);
  const [exporting, setExporting] = useState(false);
  const exportDashboard = useCallback(
    async (format: "png" | "pdf") => {
      const element = contentRef.current;
      if (!element) return;
      setExporting(true);
      try {
        await authorize(format);
        const background = getComputedStyle(document.documentElement).getPropertyValue("--svc-canvas").trim() || "#ffffff";
        if (format === "pdf") {
          const filtersLine = filtersLineOf(locale, store.getState().filters, filterLabels(widgets), valueLabel);
          saveBlob(await dashboardPdf({ element, title, description, filtersLine, printables, background }), fileNameFor(title, "pdf"));
        } else saveUrl(await elementToPng(element, background), fileNameFor(title, "png"));
        bridge.emit(EVENT_TYPES.download, { format, target: "dashboard", title });
      } catch (error) {
        bridge.emitError({ name: "ExportFailed", message: error instanceof Error ? error.message : String(error), context: "dashboard", fatal: false });
      } finally {
        setExporting(false);
      }
    },
    [bridge, title, description, widgets, printables, valueLabel, contentRef, authorize, locale, store],
  );
  return (
    <div className="svc-dashboard-tools" data-export-ignore="true" role="group" aria-label={t(locale, "export.menu")}>
      {props.formats.map((format) => (
        <button
          key={format}
          type="button"
          className="svc-button is-small"
          data-testid={`export-${format}-dashboard`}
          disabled={exporting}
          title={t(locale, `export.${format}`)}
          onClick={() => void exportDashboard(format)}
        >
          {ICONS[format]}
          {format.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
