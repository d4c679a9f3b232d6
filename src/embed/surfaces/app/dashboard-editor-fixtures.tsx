/**
 * A test fixture for the dashboard editor's parts: the report builder's app fixture with the
 * app's notifications and navigation recorded, and a workbook and report to edit.
 */
import type { ReactNode } from "react";
import type { SupportedLocale } from "../../i18n";
import type { AppWorkbook } from "./app-api";
import { AppContext, useApp, type AppContextValue } from "./app-context";
import { ordersPlatform, renderInApp, type Platform } from "./report-builder-fixtures";

export interface Recorded {
  notes: [string, string][];
  went: unknown[];
}

function Recording(props: { into: Recorded; children: ReactNode }) {
  const app = useApp();
  const value: AppContextValue = {
    ...app,
    notify: (kind, text) => void props.into.notes.push([kind, text]),
    go: (route) => void props.into.went.push(route),
  };
  return <AppContext.Provider value={value}>{props.children}</AppContext.Provider>;
}

/** Renders in the app with the platform answering (a saved draft and a publish succeed by default). */
export function renderEditorPart(ui: ReactNode, options: { platform?: Platform; locale?: SupportedLocale } = {}) {
  const recorded: Recorded = { notes: [], went: [] };
  const platform: Platform = options.platform ?? ((r) => (r.path.endsWith("/publish") ? { body: {} } : ordersPlatform(r)));
  const view = renderInApp(<Recording into={recorded}>{ui}</Recording>, { platform, ...(options.locale ? { locale: options.locale } : {}) });
  return { ...view, ...recorded };
}

export const WORKBOOK: AppWorkbook = {
  id: 3,
  type: "WORKBOOK",
  deploymentId: 1,
  name: "Sales",
  meta: {},
  calculatedFields: {},
  createdAt: "2026-11-27T00:00:00.000Z",
  updatedAt: "2026-11-27T00:00:00.000Z",
  dashboardDraft: {
    title: "Sales",
    widgets: [{ id: "text-1", type: "TEXT", position: { x: 0, y: 0, w: 6, h: 2 }, config: { markdown: "Hello" } }],
  },
};

export { ORDERS_REPORT as REPORT } from "./report-builder-fixtures";
