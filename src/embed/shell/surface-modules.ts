/**
 * Each surface is a chunk of its own, loaded on use: the router's lazy routes, the app's
 * opening surface, and the boot (which starts the opening surface's download with the app's).
 */
import type { ComponentType } from "react";
import type { Surface } from "../../protocol";

const SURFACE_MODULES: Record<Surface, () => Promise<ComponentType>> = {
  dashboard: () => import("../surfaces/dashboard/dashboard-surface").then((m) => m.DashboardSurface),
  app: () => import("../surfaces/app/app-surface").then((m) => m.AppSurface),
  chat: () => import("../surfaces/chat/chat-surface").then((m) => m.ChatSurface),
  report: () => import("../surfaces/report/report-surface").then((m) => m.ReportSurface),
};

/** A surface's component, once its chunk has loaded. */
export const loadSurface = (surface: Surface): Promise<ComponentType> => SURFACE_MODULES[surface]();
