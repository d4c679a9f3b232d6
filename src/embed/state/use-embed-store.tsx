import { createContext, useContext, type ReactNode } from "react";
import { useStore } from "zustand";
import type { EmbedState, EmbedStore } from "./embed-store";

const EmbedStoreContext = createContext<EmbedStore | null>(null);

/** Makes the embed store available to `useEmbedStore` below it. */
export function EmbedStoreProvider(props: { store: EmbedStore; children?: ReactNode }) {
  return <EmbedStoreContext.Provider value={props.store}>{props.children}</EmbedStoreContext.Provider>;
}

/** The store instance itself, for calling actions from event handlers. */
export function useEmbedStoreApi(): EmbedStore {
  const store = useContext(EmbedStoreContext);
  if (!store) throw new Error("useEmbedStore needs an <EmbedStoreProvider> above it");
  return store;
}

/** Reads a slice of the embed store; the component re-renders when the slice changes. */
export function useEmbedStore<T>(selector: (state: EmbedState) => T): T {
  return useStore(useEmbedStoreApi(), selector);
}
