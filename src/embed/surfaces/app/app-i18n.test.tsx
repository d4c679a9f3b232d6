// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import { SUPPORTED_LOCALES } from "../../i18n/supported-locales";
import { CHAT_MESSAGES, chatText } from "../../chat/chat-messages";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import { APP_MESSAGES, appText } from "./app-messages";
import { AppContext, type AppContextValue } from "./app-context";
import type { AppApi } from "./app-api";
import { WorkspaceView } from "./workspace-view";

const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();

describe.each([
  ["app", APP_MESSAGES],
  ["chat", CHAT_MESSAGES],
] as const)("the %s catalogue", (_name, catalogs: Record<string, Record<string, string>>) => {
  const english = catalogs["en-US"]!;
  const keys = Object.keys(english);

  it("has every key in every shipped locale, with the English placeholders", () => {
    expect(Object.keys(catalogs).sort()).toEqual([...SUPPORTED_LOCALES].sort());
    for (const locale of SUPPORTED_LOCALES) {
      expect(Object.keys(catalogs[locale]!).sort(), locale).toEqual([...keys].sort());
      for (const key of keys) {
        expect(catalogs[locale]![key], `${locale} ${key}`).toMatch(/\S/);
        expect(placeholders(catalogs[locale]![key]!), `${locale} ${key}`).toEqual(placeholders(english[key]!));
      }
    }
  });

  it("is translated, not English copies", () => {
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== "en-US")) {
      const same = keys.filter((key) => catalogs[locale]![key] === english[key]);
      expect(same.length, `${locale}: ${same.join(", ")}`).toBeLessThan(keys.length / 5);
    }
  });
});

describe("locale lookup", () => {
  it("keeps the English words and falls back to English", () => {
    expect(chatText("en-US", "title")).toBe("Analytics chat");
    expect(chatText("zh-CN", "openChat")).toBe("Ask AI");
    expect(appText("en-US", "sharedWith", { name: "acme" })).toBe("Shared with acme");
  });

  it("reads the shipped locale, or the closest one of the same language", () => {
    expect(chatText("fr-FR", "newChat")).toBe("Nouveau chat");
    expect(chatText("de-AT", "send")).toBe("Fragen");
    expect(appText("ja-JP", "newWorkbook")).toBe("新しいワークブック");
    expect(appText("es-MX", "you")).toBe("Tú");
  });
});

describe("the app home", () => {
  afterEach(cleanup);

  it("renders its labels in the session locale (de-DE)", async () => {
    const store = createEmbedStore();
    store.getState().setLocale("de-DE");
    const me = { mode: "signed", displayName: "Ada", embedTenant: "acme-corp", role: "developer", canCreate: true, sharedFolderId: 7, settings: {} } as const;
    // The API is the server's; here it answers an empty workspace.
    const api = {
      deploymentId: 1,
      home: async () => ({ me, recent: [], favorites: [], shared: [] }),
      list: async () => [],
    } as unknown as AppApi;
    const ctx: AppContextValue = {
      api,
      go: () => {},
      notify: () => {},
      refresh: async () => {},
      switches: {} as AppContextValue["switches"],
      me: { ...me, settings: {} },
    };
    render(
      <QueryClientProvider client={new QueryClient()}>
        <EmbedStoreProvider store={store}>
          <AppContext.Provider value={ctx}>
            <WorkspaceView folderId={null} />
          </AppContext.Provider>
        </EmbedStoreProvider>
      </QueryClientProvider>,
    );
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Start");
    expect(screen.getByTestId("new-workbook").textContent).toBe("Neue Arbeitsmappe");
    expect(screen.getByTestId("new-folder").textContent).toBe("Neuer Ordner");
    expect(screen.getByText("Ihre Arbeitsmappen, Berichte und Dashboards in acme-corp.")).toBeTruthy();
    expect((await screen.findByTestId("home-favorites")).textContent).toContain("Favoriten");
    expect((await screen.findByTestId("workspace-empty")).textContent).toContain("Noch nichts vorhanden");
    expect(screen.getByTestId("workspace-search").getAttribute("placeholder")).toBe("Alles durchsuchen");
  });
});
