/**
 * What a widget puts into the dashboard PDF, where the screen alone does not say it: a table's
 * every row (the screen holds only the rows in view), a chart's drawing as SVG. Widgets register
 * a provider with the host; the PDF export asks each one (dashboard-pdf-content.ts), and reads
 * the others (KPIs, text, AI summaries) from the page.
 */
import { useEffect } from "react";
import type { PdfBody } from "../export/pdf-document";
import { useWidgetHost } from "./widget-host";

/** The widget's content in the PDF; null: nothing better than the page shows. */
export type PrintableProvider = () => Promise<PdfBody | null>;

export interface PrintableRegistry {
  register(widgetId: string, provider: PrintableProvider): () => void;
  providerOf(widgetId: string): PrintableProvider | undefined;
}

export function createPrintableRegistry(): PrintableRegistry {
  const providers = new Map<string, PrintableProvider>();
  return {
    register(widgetId, provider) {
      providers.set(widgetId, provider);
      return () => {
        if (providers.get(widgetId) === provider) providers.delete(widgetId);
      };
    },
    providerOf: (widgetId) => providers.get(widgetId),
  };
}

/** Registers the widget's provider for as long as it is mounted (a new provider replaces the old). */
export function usePrintable(widgetId: string, provider: PrintableProvider | null) {
  const host = useWidgetHost();
  useEffect(() => (provider && host.printables ? host.printables.register(widgetId, provider) : undefined), [host, widgetId, provider]);
}
