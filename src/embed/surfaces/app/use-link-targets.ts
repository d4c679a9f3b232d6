/**
 * The dashboards a chart widget's click may open: the other workbooks the creator can see
 * (root, recent, favourites, shared with them), and for the chosen one its published
 * dashboard's filters (the members a clicked value can be passed to).
 */
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { filterConfigOf } from "../../widgets/filter/filter-config";
import { allWidgets } from "../../widgets/tabs-container/tabs-config";
import { useApp } from "./app-context";
import { appQueries, appKeys } from "./app-queries";

export interface LinkTarget {
  workbookId: number;
  name: string;
}

export function useLinkTargets(currentWorkbookId: number | null): LinkTarget[] {
  const { api } = useApp();
  const found = useQuery({
    queryKey: appKeys.linkTargets(api.deploymentId),
    queryFn: async () => {
      const [root, home] = await Promise.all([api.list(null), api.home()]);
      return [...root, ...home.recent, ...home.favorites, ...home.shared];
    },
    staleTime: 30_000,
  });
  return useMemo(() => {
    const byId = new Map<number, LinkTarget>();
    for (const item of found.data ?? []) {
      if (item.type === "WORKBOOK" && item.id !== currentWorkbookId) byId.set(item.id, { workbookId: item.id, name: item.name });
    }
    return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
  }, [found.data, currentWorkbookId]);
}

/** The chosen workbook's published dashboard: its publicId and filter members; null while loading. */
export function useLinkedDashboard(workbookId: number | null) {
  const { api } = useApp();
  const workbook = useQuery({ ...appQueries.workbook(api, workbookId), staleTime: 30_000 });
  return useMemo(() => {
    if (!workbook.data) return null;
    const published = workbook.data.publishedDashboard;
    if (!published) return { publicId: null, filterMembers: [] as string[] };
    const members = allWidgets(published.config.widgets ?? []).flatMap((w) => (w.type === "FILTER" ? [filterConfigOf(w)?.member ?? ""] : []));
    return { publicId: published.publicId, filterMembers: [...new Set(members.filter(Boolean))] };
  }, [workbook.data]);
}
