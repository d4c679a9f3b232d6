/** An error body of the API (`{ code, message, details? }`). */
export interface SvcPlatformErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

/**
 * Thrown by the helpers that cannot hand back `{ data, error }` (the page iterator, the React
 * hooks' query functions): carries the HTTP status and the API's stable error `code`.
 */
export class SvcPlatformApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;
  constructor(status: number, body: unknown) {
    const parsed = asErrorBody(body);
    super(parsed?.message ?? `Request failed with status ${status}`);
    this.name = "SvcPlatformApiError";
    this.status = status;
    this.code = parsed?.code ?? "http_" + status;
    this.details = parsed?.details;
  }
}

/** The body as an API error body, or null when it is not one. */
export function asErrorBody(body: unknown): SvcPlatformErrorBody | null {
  if (body && typeof body === "object" && typeof (body as { code?: unknown }).code === "string") {
    const b = body as { code: string; message?: unknown; details?: unknown };
    return { code: b.code, message: typeof b.message === "string" ? b.message : b.code, details: b.details };
  }
  return null;
}
