/** What every view of the app shares: the API, navigation, notices and the switches in force. */
import { createContext, useContext } from "react";
import type { AppMe } from "../../../schema/creator-app";
import type { AppApi, AppRoute } from "./app-api";

export interface AppSwitches {
  showDashboardHeader: boolean;
  showDashboardBackButton: boolean;
  showDashboardTitle: boolean;
  showDashboardEditButton: boolean;
  showDashboardDuplicateButton: boolean;
  showWorkbookBackButton: boolean;
  showWorkbookShare: boolean;
  showDashboardSettings: boolean;
  showMemberNames: boolean;
  showWorkbookChat: boolean;
  showGeneratedSql: boolean;
  showSemanticSql: boolean;
}

export interface AppContextValue {
  api: AppApi;
  go(route: AppRoute): void;
  notify(kind: "ok" | "error", text: string, undo?: () => void): void;
  refresh(): Promise<void>;
  switches: AppSwitches;
  me: AppMe;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error("app views need the AppContext");
  return value;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
