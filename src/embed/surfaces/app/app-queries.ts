/**
 * The creator app's reads, one place: a query key per resource (all under `["app", deploymentId]`,
 * which a refresh invalidates as one) and each resource's query options (TanStack's
 * `queryOptions`), so that every screen reading the same resource shares one cache entry with
 * the same freshness. Screens add what is theirs (`enabled`) when they use one:
 * `useQuery({ ...appQueries.meta(api, locale), enabled })`.
 */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { SemanticQuery } from "../../shell/platform-api";
import type { AppApi } from "./app-api";

type ShareType = Parameters<AppApi["shares"]>[0];

/** The keys of the app's resources. */
export const appKeys = {
  all: (deploymentId: number) => ["app", deploymentId] as const,
  home: (deploymentId: number) => [...appKeys.all(deploymentId), "home"] as const,
  config: (deploymentId: number) => [...appKeys.all(deploymentId), "config"] as const,
  meta: (deploymentId: number) => [...appKeys.all(deploymentId), "meta"] as const,
  list: (deploymentId: number, folderId: number | null) => [...appKeys.all(deploymentId), "list", folderId] as const,
  folder: (deploymentId: number, folderId: number | null) => [...appKeys.all(deploymentId), "folder", folderId] as const,
  search: (deploymentId: number, q: string) => [...appKeys.all(deploymentId), "search", q] as const,
  workbook: (deploymentId: number, workbookId: number | null) => [...appKeys.all(deploymentId), "workbook", workbookId] as const,
  reports: (deploymentId: number, workbookId: number) => [...appKeys.all(deploymentId), "reports", workbookId] as const,
  startingPoints: (deploymentId: number) => [...appKeys.all(deploymentId), "starting-points"] as const,
  linkTargets: (deploymentId: number) => [...appKeys.all(deploymentId), "link-targets"] as const,
  shares: (deploymentId: number, type: ShareType, id: number) => [...appKeys.all(deploymentId), "shares", type, id] as const,
  values: (deploymentId: number, member: string) => [...appKeys.all(deploymentId), "values", member] as const,
  sql: (deploymentId: number, query: SemanticQuery) => [...appKeys.all(deploymentId), "sql", JSON.stringify(query)] as const,
};

/** The query options of each resource the app reads. */
export const appQueries = {
  home: (api: AppApi) => queryOptions({ queryKey: appKeys.home(api.deploymentId), queryFn: () => api.home(), retry: false }),
  config: (api: AppApi) => queryOptions({ queryKey: appKeys.config(api.deploymentId), queryFn: () => api.appConfig(), retry: false, staleTime: Infinity }),
  /** The model as the creator may query it: changes rarely, read by the builder, the home and the chat. */
  /** The model's views and members, titled in the viewer's locale. */
  meta: (api: AppApi, locale: string) =>
    // A new locale keeps the last titles on screen until its own arrive (no loading state).
    queryOptions({
      queryKey: [...appKeys.meta(api.deploymentId), locale],
      queryFn: () => api.meta(locale),
      retry: false,
      staleTime: 60_000,
      placeholderData: keepPreviousData,
    }),
  list: (api: AppApi, folderId: number | null) => queryOptions({ queryKey: appKeys.list(api.deploymentId, folderId), queryFn: () => api.list(folderId) }),
  folder: (api: AppApi, folderId: number | null) =>
    queryOptions({ queryKey: appKeys.folder(api.deploymentId, folderId), queryFn: () => api.folder(folderId!), enabled: folderId !== null }),
  search: (api: AppApi, q: string) => queryOptions({ queryKey: appKeys.search(api.deploymentId, q), queryFn: () => api.search(q), enabled: q.length > 0 }),
  workbook: (api: AppApi, workbookId: number | null) =>
    queryOptions({
      queryKey: appKeys.workbook(api.deploymentId, workbookId),
      queryFn: () => api.workbook(workbookId!),
      enabled: workbookId !== null,
      retry: false,
    }),
  reports: (api: AppApi, workbookId: number) =>
    queryOptions({ queryKey: appKeys.reports(api.deploymentId, workbookId), queryFn: () => api.reports(workbookId), retry: false }),
  startingPoints: (api: AppApi, locale: string) =>
    queryOptions({
      queryKey: [...appKeys.startingPoints(api.deploymentId), locale],
      queryFn: () => api.startingPoints(locale),
      placeholderData: keepPreviousData,
    }),
  shares: (api: AppApi, type: ShareType, id: number) =>
    queryOptions({ queryKey: appKeys.shares(api.deploymentId, type, id), queryFn: () => api.shares(type, id), retry: false }),
  /** A member's values for a value picker (the first hundred). */
  values: (api: AppApi, member: string) =>
    queryOptions({ queryKey: appKeys.values(api.deploymentId, member), queryFn: () => api.values(member, ""), staleTime: 60_000 }),
  sql: (api: AppApi, query: SemanticQuery) => queryOptions({ queryKey: appKeys.sql(api.deploymentId, query), queryFn: () => api.sql(query), retry: false }),
};
