/**
 * The parts of a widget host (widget-host.ts) that a dashboard and a single report give their
 * widgets alike: exports authorised on the server, distinct values with their labels in the
 * viewer's language (remembered for the PDF's filter line and the drill panel), and errors,
 * drilldowns, downloads and clicks reported to the host page.
 */
import { EVENT_TYPES } from "../../protocol";
import type { EmbedServices } from "../shell/embed-context";
import { authorizeExport, fetchDistinctValues } from "../shell/platform-api";
import type { createValueLabelMemory } from "./value-label-memory";
import { createWidgetClickHandler } from "./widget-click-handler";
import type { DrilldownRequest, WidgetHost } from "./widget-host";

export function sharedHostParts(input: {
  services: Pick<EmbedServices, "api" | "bridge" | "store">;
  deploymentId: number;
  valueLabels: ReturnType<typeof createValueLabelMemory>;
  onDrilldown: (request: DrilldownRequest) => void;
}): Pick<WidgetHost, "authorizeExport" | "distinctValues" | "valueLabel" | "reportError" | "drilled" | "drilldown" | "downloaded" | "clicked"> {
  const { api, bridge, store } = input.services;
  const { deploymentId, valueLabels } = input;
  return {
    authorizeExport: (format, target) => authorizeExport(api, { format, target }),
    distinctValues: async (member, search, signal) => {
      const locale = store.getState().locale;
      const answer = await fetchDistinctValues(api, deploymentId, { member, ...(search ? { search } : {}), limit: 200, locale }, signal);
      valueLabels.remember(member, locale, answer.labels);
      return answer.values;
    },
    valueLabel: (member, value) => valueLabels.labelOf(member, store.getState().locale, value),
    reportError: (error) => bridge.emitError(error),
    drilled: (event) => bridge.emit(EVENT_TYPES.drilldown, event),
    drilldown: (request, event) => {
      bridge.emit(EVENT_TYPES.drilldown, event);
      input.onDrilldown(request);
    },
    downloaded: (event) => bridge.emit(EVENT_TYPES.download, event),
    clicked: createWidgetClickHandler({ bridge, store }),
  };
}
