/**
 * The dashboard's export menu: a picture of the whole dashboard as PNG or PDF, only in the
 * formats the viewer may export. The platform is asked first (the session's export grant);
 * a refusal saves nothing and is reported as a non-fatal `ExportFailed`.
 */
import { useCallback, useState, type RefObject } from "react";
import { EVENT_TYPES, type DownloadFormat } from "../../../protocol";
import type { EmbedBridge } from "../../bridge";
import { elementToPng, pngToPdf } from "../../export/image-export";
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

export function DashboardExportMenu(props: {
  formats: readonly ("png" | "pdf")[];
  title: string;
  contentRef: RefObject<HTMLElement | null>;
  bridge: EmbedBridge;
  authorize: (format: DownloadFormat) => Promise<void>;
}) {
  const { title, contentRef, bridge, authorize } = props;
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
        const png = await elementToPng(element, background);
        if (format === "pdf") saveBlob(await pngToPdf(png, title), fileNameFor(title, "pdf"));
        else saveUrl(png, fileNameFor(title, "png"));
        bridge.emit(EVENT_TYPES.download, { format, target: "dashboard", title });
      } catch (error) {
        bridge.emitError({ name: "ExportFailed", message: error instanceof Error ? error.message : String(error), context: "dashboard", fatal: false });
      } finally {
        setExporting(false);
      }
    },
    [bridge, title, contentRef, authorize],
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
