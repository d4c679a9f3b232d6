import type { components, paths } from "./generated/schema";
import type { CreateWorkbookInput } from "../schema/workbook";
import type { SvcPlatformClient } from "./platform-client";

/** Options of the upsert retry (spec 4.1 rule 5: `409 upsert_branch_changed` is transient). */
export interface UpsertRetryOptions {
  /** Retries after the first attempt (default 4). Other errors, including other 409s, never retry. */
  retries?: number;
  /** Base of the exponential backoff in milliseconds (default 100). */
  baseDelayMs?: number;
  /** Cap of a single wait in milliseconds (default 2000). */
  maxDelayMs?: number;
  /** Stops waiting and retrying when aborted; also passed to each request. */
  signal?: AbortSignal;
  /** Source of randomness for the jitter (default Math.random); a test can pin it. */
  random?: () => number;
  /** Waits between attempts (default setTimeout); a test can make it instant. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

type Result = { data?: unknown; error?: unknown; response: Response };

/** True when a response is the transient upsert race of spec 4.1 rule 5. */
export function isUpsertBranchChanged(result: Result): boolean {
  return result.response.status === 409 && (result.error as { code?: unknown } | undefined)?.code === "upsert_branch_changed";
}

/**
 * Runs an upsert call and repeats it while it answers `409 upsert_branch_changed`, waiting a
 * jittered exponential backoff ("full jitter": a random wait up to base × 2^attempt, capped) so
 * concurrent writers spread out. Returns the last result; never throws on API errors.
 */
export async function retryUpsert<R extends Result>(call: (signal?: AbortSignal) => Promise<R>, options: UpsertRetryOptions = {}): Promise<R> {
  const retries = options.retries ?? 4;
  const base = options.baseDelayMs ?? 100;
  const cap = options.maxDelayMs ?? 2000;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? sleepFor;
  for (let attempt = 0; ; attempt++) {
    const result = await call(options.signal);
    if (!isUpsertBranchChanged(result) || attempt >= retries) return result;
    await sleep(Math.floor(random() * Math.min(cap, base * 2 ** attempt)), options.signal);
  }
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

const WORKBOOK_BY_SLUG = "/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}" as const;
type PutOf<P extends string> = { [K in keyof paths]: K extends P ? (paths[K] extends { put: infer Op } ? Op : never) : never }[keyof paths];
type WorkbookBySlugOp = PutOf<typeof WORKBOOK_BY_SLUG>;
type JsonBody<Op> = Op extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type Json200<Op> = Op extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;

/** Body of the workbook upsert (CreateWorkbookInput, spec 2.1). */
export type UpsertWorkbookBody = [JsonBody<WorkbookBySlugOp>] extends [never] ? CreateWorkbookInput : JsonBody<WorkbookBySlugOp>;

/** Result of {@link upsertWorkbookBySlug}: the Workbook on success, the error body otherwise. */
export type UpsertWorkbookResult =
  { data: Json200<WorkbookBySlugOp>; error?: never; response: Response } | { data?: never; error: components["schemas"]["Error"]; response: Response };

/**
 * `PUT /api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}` (spec 4.1) with the retry
 * of {@link retryUpsert}: only `409 upsert_branch_changed` is retried, with bounded, jittered
 * backoff; any other answer (including other 409s) is returned at once.
 */
export function upsertWorkbookBySlug(
  client: SvcPlatformClient,
  target: { deploymentId: number; slug: string; body?: UpsertWorkbookBody },
  options: UpsertRetryOptions = {},
): Promise<UpsertWorkbookResult> {
  const put = client.PUT as unknown as (path: string, init: unknown) => Promise<UpsertWorkbookResult>;
  return retryUpsert(
    (signal) => put(WORKBOOK_BY_SLUG, { params: { path: { deploymentId: target.deploymentId, slug: target.slug } }, body: target.body ?? {}, signal }),
    options,
  );
}
