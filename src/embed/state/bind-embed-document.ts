/**
 * Keeps the document in step with the embed store: colour scheme (with `auto` following the
 * OS live), theme custom properties and `<html lang>`. Call once at start-up.
 */
import { createColorSchemeController, type ColorSchemeWindow } from "../theme/color-scheme";
import { applyEmbedTheme, type StyleTarget } from "../theme/embed-theme";
import type { EmbedStore } from "./embed-store";

/** What the binding needs from `window`; a real window satisfies it. */
export interface EmbedDocumentWindow extends ColorSchemeWindow {
  document: ColorSchemeWindow["document"] & {
    documentElement: ColorSchemeWindow["document"]["documentElement"] & StyleTarget & { lang: string };
  };
}

/** Applies the current state and every later change; returns a function that stops it. */
export function bindEmbedDocument(store: EmbedStore, window: EmbedDocumentWindow): () => void {
  const root = window.document.documentElement;
  const initial = store.getState();
  const scheme = createColorSchemeController({
    window,
    initial: initial.colorScheme,
    onResolvedChange: (resolved) => {
      if (store.getState().resolvedScheme !== resolved) store.getState().setResolvedScheme(resolved);
    },
  });
  applyEmbedTheme(root, initial.theme);
  root.lang = initial.locale;

  const unsubscribe = store.subscribe((state, previous) => {
    if (state.colorScheme !== previous.colorScheme) scheme.set(state.colorScheme);
    if (state.theme !== previous.theme) applyEmbedTheme(root, state.theme);
    if (state.locale !== previous.locale) root.lang = state.locale;
  });
  return () => {
    unsubscribe();
    scheme.destroy();
  };
}
