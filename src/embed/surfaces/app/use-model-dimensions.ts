/** The data model's dimensions for the dashboard editor's pickers: by view, with titles and types. */
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { useEmbedStore } from "../../state/use-embed-store";
import { useApp } from "./app-context";
import { appQueries } from "./app-queries";

export interface ModelDimension {
  name: string;
  /** `<view title>: <member title>`. */
  title: string;
  type: string;
}

export interface ModelDimensions {
  list: ModelDimension[];
  byView: ReadonlyMap<string, string[]>;
  titleOf(member: string): string;
}

export function useModelDimensions(): ModelDimensions {
  const { api } = useApp();
  const locale = useEmbedStore((s) => s.locale);
  // The same query (and cache entry) as the report builder's model.
  const meta = useQuery(appQueries.meta(api, locale));
  return useMemo(() => {
    const sources = meta.data?.sources ?? [];
    const list = sources.flatMap((s) => s.dimensions.map((d) => ({ name: d.name, title: `${s.title}: ${d.shortTitle || d.title}`, type: d.type })));
    const titles = new Map(list.map((d) => [d.name, d.title]));
    return {
      list,
      byView: new Map(sources.map((s) => [s.name, s.dimensions.map((d) => d.name)])),
      titleOf: (member: string) => titles.get(member) ?? member,
    };
  }, [meta.data]);
}
