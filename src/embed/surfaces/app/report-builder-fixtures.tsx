/**
 * A test fixture for the report builder's components: the embed shell around them with a real
 * typed client over an injected fetch (every request is recorded, the platform answers from a
 * handler), a bridge whose error events are recorded, and the app context.
 */
import type { ReactNode } from "react";
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ErrorPayload } from "../../../protocol";
import { parseEmbedUrlParameters } from "../../../schema/dashboard-filters";
import type { EmbedBridge } from "../../bridge";
import { createEmbedApi } from "../../shell/api";
import { EmbedServicesContext, type EmbedServices } from "../../shell/embed-context";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import type { Report } from "../../../schema/report";
import type { SupportedLocale } from "../../i18n";
import { createAppApi, type MetaSource } from "./app-api";
import { AppContext, type AppContextValue } from "./app-context";

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

/** The platform's answer to a request (status 200 JSON unless it says otherwise). */
export type Platform = (request: RecordedRequest) => { status?: number; body: unknown } | undefined;

export const ORDERS: MetaSource = {
  name: "orders",
  kind: "view",
  title: "Orders",
  measures: [{ name: "orders.count", title: "Orders Count", shortTitle: "Count", type: "number" }],
  dimensions: [
    { name: "orders.id", title: "Order ID", shortTitle: "Order ID", type: "number" },
    { name: "orders.status", title: "Status", shortTitle: "Status", type: "string" },
  ],
};

/** A platform with the orders view that answers every query with one row. */
/** A report of the orders view, as GET answers it. */
export const ORDERS_REPORT: Report = {
  id: 5,
  publicId: "OrdersReport1",
  deploymentId: 1,
  type: "REPORT",
  folderId: null,
  folderPath: [],
  workbookId: 3,
  name: "Orders",
  title: null,
  description: null,
  kind: "table",
  query: { measures: ["orders.count"] },
  sqlQuery: null,
  spec: null,
  meta: null,
  fillMissingRows: null,
  periodComparisons: null,
  preferences: null,
  externalWorkbookPlacements: [],
  versionNumber: 1,
  createdBy: null,
  createdAt: "2026-11-27T00:00:00.000Z",
  updatedAt: "2026-11-27T00:00:00.000Z",
  lastViewedAt: null,
  canEdit: true,
  canManage: true,
};

export const ordersPlatform: Platform = (r) => {
  if (r.path.endsWith("/meta")) return { body: { sources: [ORDERS] } };
  if (r.path.endsWith("/query"))
    return {
      body: {
        data: [{ "orders.count": 3 }],
        annotation: { measures: { "orders.count": { title: "Orders Count", shortTitle: "Count", type: "number" } }, dimensions: {}, timeDimensions: {} },
        fromCache: false,
      },
    };
  if (r.method === "PUT") return { body: r.body };
  return undefined;
};

export function renderInApp(ui: ReactNode, options: { platform?: Platform; locale?: SupportedLocale } = {}) {
  const requests: RecordedRequest[] = [];
  const errors: ErrorPayload[] = [];
  const platform = options.platform ?? ordersPlatform;
  const embedApi = createEmbedApi({
    baseUrl: "https://platform.example",
    mode: "signed",
    fetch: async (request) => {
      const text = await request.text();
      const recorded = { method: request.method, path: new URL(request.url).pathname, body: text ? (JSON.parse(text) as unknown) : null };
      requests.push(recorded);
      const answer = platform(recorded) ?? { status: 404, body: { code: "not_found", message: "not here" } };
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { "content-type": "application/json" } });
    },
  });
  const store = createEmbedStore(options.locale ? { locale: options.locale } : {});
  const bridge: EmbedBridge = {
    surface: "app",
    hostOrigin: "https://host.example",
    dropped: { source: 0, origin: 0, direction: 0, "invalid-envelope": 0, "unknown-type": 0, "invalid-payload": 0, "sender-window": 0 },
    handle: () => () => {},
    emit: () => true,
    emitError: (error) => {
      errors.push(error);
      return true;
    },
    observeContentSize: () => () => {},
    receive: async () => {},
    destroy: () => {},
  };
  const services: EmbedServices = {
    api: embedApi,
    bridge,
    store,
    surface: "app",
    urlParameters: parseEmbedUrlParameters(new URLSearchParams()),
    mountedAt: 0,
    auth: { getState: () => ({ status: "pending" }), subscribe: () => () => {}, first: new Promise(() => {}) },
    dashboardData: null,
  };
  const api = createAppApi(embedApi, 1);
  const app: AppContextValue = {
    api,
    go: () => {},
    notify: () => {},
    refresh: async () => {},
    switches: {
      showDashboardHeader: true,
      showDashboardBackButton: true,
      showDashboardTitle: true,
      showDashboardEditButton: true,
      showDashboardDuplicateButton: true,
      showWorkbookBackButton: true,
      showWorkbookShare: true,
      showDashboardSettings: true,
      showMemberNames: false,
      showWorkbookChat: false,
      showGeneratedSql: false,
      showSemanticSql: false,
    },
    me: { mode: "signed", displayName: "Ada", embedTenant: "acme", role: "developer", canCreate: true, sharedFolderId: null, settings: {} },
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <EmbedServicesContext.Provider value={services}>
        <EmbedStoreProvider store={store}>
          <AppContext.Provider value={app}>{ui}</AppContext.Provider>
        </EmbedStoreProvider>
      </EmbedServicesContext.Provider>
    </QueryClientProvider>,
  );
  return { ...view, requests, errors };
}
