import { asErrorBody, paginate, retryUpsert, type SvcPlatformClient } from "../client";

/** A failed call, worded for a person at a terminal. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = "CliError";
  }
}

type Loose = (method: string, path: string, init?: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * Calls an operation and returns its data, or throws a {@link CliError} that says what went
 * wrong and what to do: unreachable base URL, rejected key, or the API's own message.
 * Paths are given as templates with `params.path`, as with the client itself.
 */
export async function callApi<T>(
  client: SvcPlatformClient,
  baseUrl: string,
  method: string,
  path: string,
  init: { params?: unknown; body?: unknown } = {},
  opts: { retryUpsert?: boolean } = {},
): Promise<T> {
  const request = client.request as unknown as Loose;
  let result: Awaited<ReturnType<Loose>>;
  try {
    result = opts.retryUpsert ? await retryUpsert(() => request(method, path, init)) : await request(method, path, init);
  } catch (err) {
    throw transportError(baseUrl, err);
  }
  if (result.error === undefined && result.response.ok) return result.data as T;
  throw apiError(baseUrl, result.response, result.error);
}

/** Every item of a cursor-paginated list. */
export async function listAll<T>(client: SvcPlatformClient, baseUrl: string, path: string, params: unknown): Promise<T[]> {
  const items: T[] = [];
  try {
    const walk = paginate as unknown as (c: SvcPlatformClient, p: string, o: unknown) => AsyncGenerator<T>;
    for await (const item of walk(client, path, { params })) items.push(item);
  } catch (err) {
    const e = err as { name?: string; status?: number; code?: string; message?: string; details?: unknown };
    if (e?.name === "SvcPlatformApiError")
      throw apiError(baseUrl, { status: e.status ?? 0 } as Response, { code: e.code, message: e.message, details: e.details });
    throw transportError(baseUrl, err);
  }
  return items;
}

export function transportError(baseUrl: string, err: unknown): CliError {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const reason = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return new CliError(`cannot reach ${baseUrl} (${reason}); check the base URL (svc login --base-url) and the network`, 0, "network_error");
}

export function apiError(baseUrl: string, response: Pick<Response, "status">, body: unknown): CliError {
  const parsed = asErrorBody(body);
  if (response.status === 401) {
    return new CliError(
      `the API key was refused (401${parsed ? ` ${parsed.code}: ${parsed.message}` : ""}); run svc login or set SVC_API_KEY`,
      401,
      parsed?.code ?? "unauthorized",
    );
  }
  if (!parsed) {
    return new CliError(`${baseUrl} answered HTTP ${response.status} without an svc error body; is the base URL an svc platform?`, response.status, "not_svc");
  }
  const details = Array.isArray(parsed.details)
    ? (parsed.details as { path?: unknown; line?: unknown; message?: string }[])
        .slice(0, 5)
        .map((d) => `\n    ${placeOf(d)}: ${d.message ?? ""}`)
        .join("")
    : "";
  return new CliError(`${parsed.message} (HTTP ${response.status} ${parsed.code})${details}`, response.status, parsed.code);
}

/** Where a problem is: a path inside the request body, or a file and line (a model or dictionary file). */
function placeOf(detail: { path?: unknown; line?: unknown }): string {
  if (Array.isArray(detail.path)) return detail.path.join(".");
  if (typeof detail.path === "string") return typeof detail.line === "number" ? `${detail.path}:${detail.line}` : detail.path;
  return "";
}
