/**
 * React hooks over the typed platform client, on TanStack Query (a peer dependency).
 * Wrap the tree in `QueryClientProvider` (or pass `queryClient` to the provider) and
 * `SvcPlatformApiProvider`; every hook is typed by method and path of the OpenAPI document.
 */
import {
  QueryClientProvider,
  useMutation,
  useQuery,
  useSuspenseQuery,
  type QueryClient,
  type QueryKey,
  type UseMutationOptions,
  type UseMutationResult,
  type UseQueryOptions,
  type UseQueryResult,
  type UseSuspenseQueryOptions,
  type UseSuspenseQueryResult,
} from "@tanstack/react-query";
import type { FetchResponse, MaybeOptionalInit } from "openapi-fetch";
import { createContext, useContext, type ReactNode } from "react";
import type { paths } from "./generated/schema";
import { SvcPlatformApiError } from "./api-error";
import type { SvcPlatformClient } from "./platform-client";

/** HTTP methods the hooks accept (lower case, as in the OpenAPI document). */
export type SvcPlatformHttpMethod = "get" | "put" | "post" | "delete" | "patch";

/** Paths that have an operation for `M`. */
export type SvcPlatformPath<M extends SvcPlatformHttpMethod> = {
  [P in keyof paths]: paths[P] extends { [K in M]: infer Op } ? ([Op] extends [never | undefined] ? never : P) : never;
}[keyof paths];

type Operation<M extends SvcPlatformHttpMethod, P extends keyof paths> = paths[P] extends { [K in M]: infer Op } ? Op : never;
type PathItem<M extends SvcPlatformHttpMethod, P extends keyof paths> = { [K in M]: Operation<M, P> };

/** The request options (`params`, `body`, `headers`) of an operation. */
export type SvcPlatformInit<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>> = MaybeOptionalInit<PathItem<M, P>, M>;

/** The success body of an operation. */
export type SvcPlatformData<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>> = NonNullable<
  FetchResponse<Operation<M, P> & Record<string | number, unknown>, SvcPlatformInit<M, P>, "application/json">["data"]
>;

/** The query key of an operation call: `[method, path, init]`. */
export type SvcPlatformQueryKey<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>> = readonly [M, P, SvcPlatformInit<M, P> | undefined];

/** An init argument that may be left out when the operation has no required parameter. */
type InitArgs<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>, Rest extends unknown[]> =
  undefined extends SvcPlatformInit<M, P> ? [init?: SvcPlatformInit<M, P>, ...rest: Partial<Rest>] : [init: SvcPlatformInit<M, P>, ...rest: Partial<Rest>];

/** Query options of the hooks (everything TanStack takes except the key and the function). */
export type SvcPlatformQueryOptions<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>> = Omit<
  UseQueryOptions<SvcPlatformData<M, P>, SvcPlatformApiError, SvcPlatformData<M, P>, QueryKey>,
  "queryKey" | "queryFn"
>;

export type SvcPlatformSuspenseQueryOptions<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>> = Omit<
  UseSuspenseQueryOptions<SvcPlatformData<M, P>, SvcPlatformApiError, SvcPlatformData<M, P>, QueryKey>,
  "queryKey" | "queryFn"
>;

const ClientContext = createContext<SvcPlatformClient | null>(null);

/** Props of {@link SvcPlatformApiProvider}. */
export interface SvcPlatformApiProviderProps {
  /** The client every hook below calls. */
  client: SvcPlatformClient;
  /** When given, a `QueryClientProvider` for it is rendered too. */
  queryClient?: QueryClient;
  children?: ReactNode;
}

/** Makes a platform client available to the hooks below it. */
export function SvcPlatformApiProvider({ client, queryClient, children }: SvcPlatformApiProviderProps) {
  const inner = <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
  return queryClient ? <QueryClientProvider client={queryClient}>{inner}</QueryClientProvider> : inner;
}

/** The client of the nearest {@link SvcPlatformApiProvider}. */
export function useSvcPlatformApi(): SvcPlatformClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error("useSvcPlatformApi must be used inside <SvcPlatformApiProvider client={…}>");
  return client;
}

/**
 * Calls an operation and returns its data, throwing {@link SvcPlatformApiError} on an API
 * error (and on a transport failure, as status 0 with code `network_error`), the way
 * TanStack Query expects a query or mutation function to fail.
 */
async function callOperation(client: SvcPlatformClient, method: SvcPlatformHttpMethod, path: string, init: unknown, signal?: AbortSignal): Promise<unknown> {
  const request = client.request as unknown as (m: string, p: string, i: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  let result: { data?: unknown; error?: unknown; response: Response };
  try {
    result = await request(method, path, { ...(init as object | undefined), signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    const wrapped = new SvcPlatformApiError(0, { code: "network_error", message: err instanceof Error ? err.message : String(err) });
    (wrapped as { cause?: unknown }).cause = err;
    throw wrapped;
  }
  if (result.error !== undefined || !result.response.ok) throw new SvcPlatformApiError(result.response.status, result.error);
  // A 204 has no body; TanStack refuses `undefined` as query data.
  return result.data ?? null;
}

/** Query options (`queryKey`, `queryFn`, and yours) for `useQuery`, `useQueries`, prefetching. */
export function useSvcPlatformApiQueryOptions<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>>(
  method: M,
  path: P,
  ...[init, options]: InitArgs<M, P, [options: SvcPlatformQueryOptions<M, P>]>
): SvcPlatformQueryOptions<M, P> & {
  queryKey: SvcPlatformQueryKey<M, P>;
  queryFn: (ctx: { signal: AbortSignal }) => Promise<SvcPlatformData<M, P>>;
} {
  const client = useSvcPlatformApi();
  return {
    ...(options as SvcPlatformQueryOptions<M, P>),
    queryKey: [method, path, init] as SvcPlatformQueryKey<M, P>,
    queryFn: ({ signal }) => callOperation(client, method, path, init, signal) as Promise<SvcPlatformData<M, P>>,
  };
}

/** `useQuery` over one operation, typed by method and path. */
export function useSvcPlatformApiQuery<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>>(
  method: M,
  path: P,
  ...[init, options, queryClient]: InitArgs<M, P, [options: SvcPlatformQueryOptions<M, P>, queryClient: QueryClient]>
): UseQueryResult<SvcPlatformData<M, P>, SvcPlatformApiError> {
  const client = useSvcPlatformApi();
  return useQuery(
    {
      ...(options as SvcPlatformQueryOptions<M, P>),
      queryKey: [method, path, init] as SvcPlatformQueryKey<M, P>,
      queryFn: ({ signal }) => callOperation(client, method, path, init, signal) as Promise<SvcPlatformData<M, P>>,
    },
    queryClient as QueryClient | undefined,
  );
}

/** `useSuspenseQuery` over one operation, typed by method and path. */
export function useSvcPlatformApiSuspenseQuery<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>>(
  method: M,
  path: P,
  ...[init, options, queryClient]: InitArgs<M, P, [options: SvcPlatformSuspenseQueryOptions<M, P>, queryClient: QueryClient]>
): UseSuspenseQueryResult<SvcPlatformData<M, P>, SvcPlatformApiError> {
  const client = useSvcPlatformApi();
  return useSuspenseQuery(
    {
      ...(options as SvcPlatformSuspenseQueryOptions<M, P>),
      queryKey: [method, path, init] as SvcPlatformQueryKey<M, P>,
      queryFn: ({ signal }) => callOperation(client, method, path, init, signal) as Promise<SvcPlatformData<M, P>>,
    },
    queryClient as QueryClient | undefined,
  );
}

/** Mutation options of {@link useSvcPlatformApiMutation}. */
export type SvcPlatformMutationOptions<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>> = Omit<
  UseMutationOptions<SvcPlatformData<M, P>, SvcPlatformApiError, SvcPlatformInit<M, P>>,
  "mutationFn"
>;

/** `useMutation` over one operation; `mutate(init)` takes its `params` and `body`. */
export function useSvcPlatformApiMutation<M extends SvcPlatformHttpMethod, P extends SvcPlatformPath<M>>(
  method: M,
  path: P,
  options?: SvcPlatformMutationOptions<M, P>,
  queryClient?: QueryClient,
): UseMutationResult<SvcPlatformData<M, P>, SvcPlatformApiError, SvcPlatformInit<M, P>> {
  const client = useSvcPlatformApi();
  return useMutation(
    {
      ...options,
      mutationKey: options?.mutationKey ?? [method, path],
      mutationFn: (init) => callOperation(client, method, path, init) as Promise<SvcPlatformData<M, P>>,
    },
    queryClient,
  );
}

/** @deprecated Since 0.0.20; use {@link SvcPlatformApiProvider}. Removed in a future major version. */
export const SvcCloudApiProvider = SvcPlatformApiProvider;
/** @deprecated Since 0.0.20; use {@link SvcPlatformApiProviderProps}. Removed in a future major version. */
export type SvcCloudApiProviderProps = SvcPlatformApiProviderProps;
/** @deprecated Since 0.0.20; use {@link useSvcPlatformApi}. Removed in a future major version. */
export const useSvcCloudApi = useSvcPlatformApi;
/** @deprecated Since 0.0.20; use {@link useSvcPlatformApiQuery}. Removed in a future major version. */
export const useSvcCloudApiQuery = useSvcPlatformApiQuery;
/** @deprecated Since 0.0.20; use {@link useSvcPlatformApiSuspenseQuery}. Removed in a future major version. */
export const useSvcCloudApiSuspenseQuery = useSvcPlatformApiSuspenseQuery;
/** @deprecated Since 0.0.20; use {@link useSvcPlatformApiMutation}. Removed in a future major version. */
export const useSvcCloudApiMutation = useSvcPlatformApiMutation;
/** @deprecated Since 0.0.20; use {@link useSvcPlatformApiQueryOptions}. Removed in a future major version. */
export const useSvcCloudApiQueryOptions = useSvcPlatformApiQueryOptions;
