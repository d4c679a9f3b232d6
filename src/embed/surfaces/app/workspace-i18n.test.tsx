// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WorkspaceItem } from "../../../schema/workspace";
import { SUPPORTED_LOCALES, type SupportedLocale } from "../../i18n/supported-locales";
import { createEmbedStore } from "../../state/embed-store";
import { EmbedStoreProvider } from "../../state/use-embed-store";
import type { AppApi, BulkResult } from "./app-api";
import { AppContext, type AppContextValue } from "./app-context";
import { APP_MESSAGES } from "./app-messages";
import { pluralKey, workspaceEn } from "./workspace-messages";
import { WorkspaceView } from "./workspace-view";

const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
const workspaceKeys = Object.keys(workspaceEn) as (keyof typeof workspaceEn)[];

describe("the workspace catalogue", () => {
  it("has every workspace key in every shipped locale, with the English placeholders", () => {
    for (const locale of SUPPORTED_LOCALES) {
      const catalog: Record<string, string | undefined> = APP_MESSAGES[locale];
      for (const key of workspaceKeys) {
        expect(catalog[key], `${locale} ${key}`).toMatch(/\S/);
        expect(placeholders(catalog[key] ?? ""), `${locale} ${key}`).toEqual(placeholders(workspaceEn[key]));
      }
    }
  });

  it("is not overridden by another key of the app catalogue of the same name", () => {
    for (const key of workspaceKeys) expect(APP_MESSAGES["en-US"][key], key).toBe(workspaceEn[key]);
  });

  it("is translated in every locale but English", () => {
    const sameEverywhere = new Set(["wsOk"]);
    for (const locale of SUPPORTED_LOCALES.filter((l) => l !== "en-US")) {
      const same = workspaceKeys.filter((key) => !sameEverywhere.has(key) && APP_MESSAGES[locale][key] === workspaceEn[key]);
      expect(same.length, `${locale}: ${same.join(", ")}`).toBeLessThanOrEqual(2);
    }
  });
});

describe("pluralKey", () => {
  it("picks the form the locale's plural rules name", () => {
    expect(pluralKey("de-DE", "wsDeleteCount", 1)).toBe("wsDeleteCount.one");
    expect(pluralKey("de-DE", "wsDeleteCount", 0)).toBe("wsDeleteCount.other");
    expect(pluralKey("fr-FR", "wsDeleteCount", 0)).toBe("wsDeleteCount.one");
    expect(pluralKey("fr-FR", "wsDeleteCount", 1_000_000)).toBe("wsDeleteCount.other");
    expect(pluralKey("ja-JP", "wsDeleteCount", 1)).toBe("wsDeleteCount.other");
  });
});

const at = "2026-03-04T10:00:00.000Z";
const FOLDER: WorkspaceItem = { type: "FOLDER", id: 11, name: "Quartal", folderId: null, createdAt: at, updatedAt: at };
const WORKBOOK: WorkspaceItem = { type: "WORKBOOK", id: 12, name: "Umsatz", folderId: null, createdAt: at, updatedAt: at };

function renderWorkspace(locale: SupportedLocale, bulkDelete: (refs: unknown) => Promise<BulkResult>) {
  const store = createEmbedStore();
  store.getState().setLocale(locale);
  const me = { mode: "signed", displayName: "Ada", embedTenant: "acme-corp", role: "developer", canCreate: true, sharedFolderId: 7, settings: {} } as const;
  const notify = vi.fn();
  // The API is the server's; here it answers a folder and a workbook at the root.
  const api = {
    deploymentId: 1,
    home: async () => ({ me, recent: [WORKBOOK], favorites: [], shared: [] }),
    list: async (folderId: number | null) => (folderId === null ? [FOLDER, WORKBOOK] : []),
    bulkDelete,
    bulkMove: async () => ({ succeeded: [], failed: [] }),
    renameFolder: async () => {},
    duplicateWorkbook: async () => ({ id: 13 }),
    shares: async () => ({ shared: [], available: [{ name: "finance", displayName: "Finance" }] }),
    setShares: async () => {},
  } as unknown as AppApi;
  const ctx: AppContextValue = { api, go: () => {}, notify, refresh: async () => {}, switches: {} as AppContextValue["switches"], me };
  render(
    <QueryClientProvider client={new QueryClient()}>
      <EmbedStoreProvider store={store}>
        <AppContext.Provider value={ctx}>
          <WorkspaceView folderId={null} />
        </AppContext.Provider>
      </EmbedStoreProvider>
    </QueryClientProvider>,
  );
  return notify;
}

const dialog = () => screen.getByTestId("app-dialog");
const buttons = (el: HTMLElement) =>
  within(el)
    .queryAllByRole("button", { hidden: true })
    .map((b) => b.textContent);
async function openMenu(item: WorkspaceItem) {
  const row = await screen.findByTestId(`item-${item.type.toLowerCase()}-${item.id}`);
  fireEvent.click(within(row).getByTestId("row-menu"));
  return row;
}
const pickMenu = (row: HTMLElement, name: string) => fireEvent.click(within(row).getByRole("menuitem", { name }));

// What the viewer reads, written out per locale rather than read from the catalogue.
const WORDS = {
  "de-DE": {
    actionsFor: "Aktionen für Quartal",
    menu: ["Umbenennen", "Verschieben…", "Freigeben…", "Löschen"],
    workbookMenu: ["Umbenennen", "Verschieben…", "Duplizieren", "Freigeben…", "Löschen"],
    deleteOne: "Quartal löschen?",
    deleteText: "Ordner werden mit ihrem gesamten Inhalt gelöscht. Das lässt sich nicht rückgängig machen.",
    deleteButtons: ["Abbrechen", "Löschen"],
    deleteTwo: "2 Elemente löschen?",
    deletedOne: "1 Element gelöscht",
    failuresTitle: "1 Element konnte nicht gelöscht werden",
    failuresDone: "1 Element gelöscht",
    ok: "OK",
    renameTitle: "Ordner umbenennen",
    renameButtons: ["Abbrechen", "Umbenennen"],
    nameLabel: "Name",
    nameNeeded: "Bitte geben Sie einen Namen ein.",
    renamed: "Umbenannt in Q2",
    moveTitle: "Quartal verschieben",
    moveButtons: ["Start", "Abbrechen", "Hierher verschieben"],
    noFolders: "Hier gibt es keine Ordner.",
    duplicated: "Umsatz dupliziert",
    shareTitle: "Umsatz freigeben",
    everyone: "Alle in acme-corp",
    shared: "Freigabe aktualisiert",
  },
  "fr-FR": {
    actionsFor: "Actions pour Quartal",
    menu: ["Renommer", "Déplacer…", "Partager…", "Supprimer"],
    workbookMenu: ["Renommer", "Déplacer…", "Dupliquer", "Partager…", "Supprimer"],
    deleteOne: "Supprimer Quartal ?",
    deleteText: "Les dossiers sont supprimés avec tout leur contenu. Cette action est irréversible.",
    deleteButtons: ["Annuler", "Supprimer"],
    deleteTwo: "Supprimer 2 éléments ?",
    deletedOne: "1 élément supprimé",
    failuresTitle: "1 élément n'a pas pu être supprimé",
    failuresDone: "1 élément supprimé",
    ok: "OK",
    renameTitle: "Renommer le dossier",
    renameButtons: ["Annuler", "Renommer"],
    nameLabel: "Nom",
    nameNeeded: "Indiquez un nom.",
    renamed: "Renommé en Q2",
    moveTitle: "Déplacer Quartal",
    moveButtons: ["Accueil", "Annuler", "Déplacer ici"],
    noFolders: "Aucun dossier ici.",
    duplicated: "Umsatz dupliqué",
    shareTitle: "Partager Umsatz",
    everyone: "Tout le monde chez acme-corp",
    shared: "Partage mis à jour",
  },
} as const;

describe.each(Object.entries(WORDS) as [keyof typeof WORDS, (typeof WORDS)[keyof typeof WORDS]][])("the workspace in %s", (locale, w) => {
  afterEach(cleanup);

  it("names the row menu's actions and writes dates in the locale", async () => {
    renderWorkspace(locale, async () => ({ succeeded: [], failed: [] }));
    const row = await openMenu(FOLDER);
    expect(within(row).getByTestId("row-menu").getAttribute("aria-label")).toBe(w.actionsFor);
    expect(
      within(row)
        .getAllByRole("menuitem")
        .map((b) => b.textContent),
    ).toEqual(w.menu);
    const workbookRow = await openMenu(WORKBOOK);
    expect(
      within(workbookRow)
        .getAllByRole("menuitem")
        .map((b) => b.textContent),
    ).toEqual(w.workbookMenu);
    const day = new Intl.DateTimeFormat(locale, { dateStyle: "medium" }).format(new Date(at));
    expect(row.querySelector(".svc-app-row-date")?.textContent).toBe(day);
    expect(day).not.toBe(new Intl.DateTimeFormat("en-US", { dateStyle: "medium" }).format(new Date(at)));
  });

  it("asks before deleting and tells what was deleted", async () => {
    const notify = renderWorkspace(locale, async () => ({ succeeded: [{ type: "FOLDER", id: 11 }], failed: [] }));
    pickMenu(await openMenu(FOLDER), w.menu[3]);
    expect(dialog().querySelector("h2")?.textContent).toBe(w.deleteOne);
    expect(dialog().querySelector("p")?.textContent).toBe(w.deleteText);
    expect(buttons(dialog())).toEqual(w.deleteButtons);
    await act(async () => fireEvent.click(screen.getByTestId("confirm-delete")));
    await waitFor(() => expect(notify).toHaveBeenCalledWith("ok", w.deletedOne));
  });

  it("counts a bulk delete with the plural form and lists what failed", async () => {
    renderWorkspace(locale, async () => ({
      succeeded: [{ type: "FOLDER", id: 11 }],
      failed: [{ type: "WORKBOOK", id: 12, code: "forbidden", message: "nope" }],
    }));
    await screen.findByTestId("workspace-list");
    for (const checkbox of screen.getAllByRole("checkbox")) fireEvent.click(checkbox);
    fireEvent.click(within(screen.getByTestId("bulk-bar")).getAllByRole("button")[1]!);
    expect(dialog().querySelector("h2")?.textContent).toBe(w.deleteTwo);
    await act(async () => fireEvent.click(screen.getByTestId("confirm-delete")));
    await screen.findByTestId("bulk-failures");
    expect(dialog().querySelector("h2")?.textContent).toBe(w.failuresTitle);
    expect(dialog().textContent).toContain(w.failuresDone);
    expect(screen.getByTestId("bulk-failures").textContent).toBe("Umsatz: nope");
    expect(buttons(dialog())).toEqual([w.ok]);
  });

  it("renames in its own words", async () => {
    const notify = renderWorkspace(locale, async () => ({ succeeded: [], failed: [] }));
    pickMenu(await openMenu(FOLDER), w.menu[0]);
    expect(dialog().querySelector("h2")?.textContent).toBe(w.renameTitle);
    expect(dialog().querySelector("label span")?.textContent).toBe(w.nameLabel);
    expect(buttons(dialog())).toEqual(w.renameButtons);
    fireEvent.change(screen.getByTestId("name-input"), { target: { value: " " } });
    fireEvent.submit(screen.getByTestId("name-input").closest("form")!);
    expect((await screen.findByRole("alert", { hidden: true })).textContent).toBe(w.nameNeeded);
    fireEvent.change(screen.getByTestId("name-input"), { target: { value: "Q2" } });
    await act(async () => fireEvent.submit(screen.getByTestId("name-input").closest("form")!));
    await waitFor(() => expect(notify).toHaveBeenCalledWith("ok", w.renamed));
  });

  it("moves, duplicates and shares in its own words", async () => {
    const notify = renderWorkspace(locale, async () => ({ succeeded: [], failed: [] }));
    pickMenu(await openMenu(FOLDER), w.menu[1]);
    expect(dialog().querySelector("h2")?.textContent).toBe(w.moveTitle);
    await waitFor(() => expect(dialog().textContent).toContain(w.noFolders));
    expect(buttons(dialog())).toEqual(w.moveButtons);
    fireEvent.click(within(dialog()).getByRole("button", { name: w.moveButtons[1], hidden: true }));

    const workbookRow = await openMenu(WORKBOOK);
    await act(async () => pickMenu(workbookRow, w.workbookMenu[2]));
    await waitFor(() => expect(notify).toHaveBeenCalledWith("ok", w.duplicated));

    pickMenu(await openMenu(WORKBOOK), w.workbookMenu[3]);
    expect(dialog().querySelector("h2")?.textContent).toBe(w.shareTitle);
    const all = await screen.findByTestId("share-all");
    expect(all.closest("label")?.textContent?.trim()).toBe(w.everyone);
    await act(async () => fireEvent.click(all));
    await waitFor(() => expect(notify).toHaveBeenCalledWith("ok", w.shared));
  });
});
