/**
 * What every surface needs from the shell: the API client, the bridge, the store, the URL
 * parameters read at load, and how authentication went.
 */
import { createContext, useContext } from "react";
import type { Surface } from "../../protocol";
import type { EmbedUrlParameters } from "../../schema/dashboard-filters";
import type { EmbedBridge } from "../bridge";
import type { EmbedStore } from "../state/embed-store";
import type { EmbedApi } from "./api";
import type { AuthController } from "./auth-controller";
import type { DashboardData } from "./dashboard-data-types";
import type { ReportData } from "./report-data-types";
import type { EmbedAuth } from "./session";

export interface EmbedServices {
  /** The typed platform client and the embed's token. */
  api: EmbedApi;
  bridge: EmbedBridge;
  store: EmbedStore;
  surface: Surface;
  urlParameters: EmbedUrlParameters;
  /** Milliseconds (performance.now) when the app started; dashboard-loaded measures from it. */
  mountedAt: number;
  /** Authentication, started at boot; the shell renders from its state. */
  auth: AuthController;
  /**
   * The dashboard surface's data, loading since boot (its definition, set-up, and the first
   * queries of the widgets on screen); null on the other surfaces.
   */
  dashboardData: Promise<DashboardData> | null;
  /** The report surface calls it once its filter controls are known (or its report failed): a held `set-filter` then applies. */
  widgetsSetUp?: () => void;
  /** The report surface's report, loading since boot; absent on the other surfaces. */
  reportData?: ReportData | null;
}

export interface EmbedSessionState {
  auth: EmbedAuth;
}

export const EmbedServicesContext = createContext<EmbedServices | null>(null);
export const EmbedSessionContext = createContext<EmbedSessionState | null>(null);

export function useEmbedServices(): EmbedServices {
  const value = useContext(EmbedServicesContext);
  if (!value) throw new Error("useEmbedServices needs the embed shell above it");
  return value;
}

export function useEmbedSession(): EmbedSessionState {
  const value = useContext(EmbedSessionContext);
  if (!value) throw new Error("useEmbedSession needs an authenticated embed shell above it");
  return value;
}
