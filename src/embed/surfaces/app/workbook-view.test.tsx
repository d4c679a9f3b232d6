// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { EmbedServicesContext, type EmbedServices } from "../../shell/embed-context";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import { AppContext, type AppContextValue } from "./app-context";
import type { AppApi } from "./app-api";
import { WorkbookView } from "./workbook-view";

afterEach(cleanup);

function renderWorkbook(locale: string) {
  const store = createEmbedStore();
  store.getState().setLocale(locale as never);
  // The API is the server's; here it answers a workbook without reports.
  const api = {
    deploymentId: 1,
    workbook: async () => ({ id: 5, name: "Q2 review", isFavorite: false, folderPath: [] }),
    reports: async () => [],
    touchRecent: async () => {},
  } as unknown as AppApi;
  const me = { mode: "signed", displayName: "Ada", embedTenant: "acme-corp", role: "developer", canCreate: true, sharedFolderId: 7, settings: {} } as const;
  const ctx: AppContextValue = {
    api,
    go: () => {},
    notify: () => {},
    refresh: async () => {},
    switches: { showWorkbookShare: true, showWorkbookBackButton: true } as AppContextValue["switches"],
    me,
  };
  const services = { bridge: { emitError: () => {} } } as unknown as EmbedServices;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <EmbedStoreProvider store={store}>
        <EmbedServicesContext.Provider value={services}>
          <AppContext.Provider value={ctx}>
            <WorkbookView route={{ kind: "workbook", workbookId: 5 }} />
          </AppContext.Provider>
        </EmbedServicesContext.Provider>
      </EmbedStoreProvider>
    </QueryClientProvider>,
  );
}

describe("the workbook screen", () => {
  it("speaks the session's language (de-DE): header, tabs, the empty state", async () => {
    renderWorkbook("de-DE");
    expect((await screen.findByTestId("workbook-empty")).textContent).toContain("Noch keine Berichte");
    expect(screen.getByRole("button", { name: "Bericht erstellen" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Umbenennen" })).toBeTruthy();
    expect(screen.getByTestId("share-workbook").textContent).toBe("Teilen");
    expect(screen.getByTestId("tab-published").textContent).toBe("Veröffentlicht");
    expect(screen.getByTestId("new-report").textContent).toBe("+ Bericht");
    expect(screen.getByTestId("favorite").getAttribute("aria-label")).toBe("Zu Favoriten hinzufügen");
    expect(screen.getByRole("tablist").getAttribute("aria-label")).toBe("Blätter");
    expect(screen.getByRole("navigation").textContent).toContain("Start");
  });

  it("keeps its English words in en-US", async () => {
    renderWorkbook("en-US");
    expect((await screen.findByTestId("workbook-empty")).textContent).toContain("No reports yet");
    expect(screen.getByTestId("tab-published").textContent).toBe("Published");
  });
});
