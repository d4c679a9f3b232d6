import type { paths } from "./generated/schema";
import { SvcPlatformApiError } from "./api-error";
import type { SvcPlatformClient } from "./platform-client";

interface CursorPage {
  items: unknown[];
  pageInfo: { hasNextPage: boolean; endCursor?: string };
}

type JsonOk<Op> = Op extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;

/** GET paths whose 200 response is a cursor page (`items` + `pageInfo`). */
export type SvcPlatformListPath = {
  [P in keyof paths]: paths[P] extends { get: infer Op } ? (JsonOk<Op> extends CursorPage ? P : never) : never;
}[keyof paths];

/** The item type of a list path. */
export type SvcPlatformListItem<P extends SvcPlatformListPath> = paths[P] extends { get: infer Op }
  ? JsonOk<Op> extends { items: (infer I)[] }
    ? I
    : never
  : never;

type ListParams<P extends SvcPlatformListPath> = paths[P] extends { get: { parameters: infer Params } } ? Params : never;

/** Options of {@link paginate}. */
export interface PaginateOptions<P extends SvcPlatformListPath> {
  /** Path and query parameters; `after` is managed by the iterator, `first` is the page size. */
  params?: Omit<ListParams<P>, "query"> & { query?: Omit<NonNullable<ListParams<P> extends { query?: infer Q } ? Q : never>, "after"> };
  /** Aborts the walk between pages and the request in flight. */
  signal?: AbortSignal;
}

/**
 * Walks every page of a cursor-paginated list (`first` / `after`) and yields its items in
 * order. An API error ends the walk by throwing {@link SvcPlatformApiError}.
 *
 * @example for await (const d of paginate(client, "/api/v1/deployments")) console.log(d.name);
 */
export async function* paginate<P extends SvcPlatformListPath>(
  client: SvcPlatformClient,
  path: P,
  options: PaginateOptions<P> = {},
): AsyncGenerator<SvcPlatformListItem<P>, void, undefined> {
  const base = (options.params ?? {}) as { query?: Record<string, unknown>; path?: Record<string, unknown> };
  let after: string | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    // The path union is too wide for openapi-fetch to check here; callers are typed by P above.
    const { data, error, response } = await (
      client.GET as unknown as (p: string, init: unknown) => Promise<{ data?: CursorPage; error?: unknown; response: Response }>
    )(path, {
      params: { ...base, query: { ...base.query, ...(after ? { after } : {}) } },
      signal: options.signal,
    });
    if (error !== undefined || !data) throw new SvcPlatformApiError(response.status, error);
    for (const item of data.items) yield item as SvcPlatformListItem<P>;
    if (!data.pageInfo.hasNextPage || !data.pageInfo.endCursor) return;
    after = data.pageInfo.endCursor;
  }
}
