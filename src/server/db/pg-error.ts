/** Postgres error code and constraint, whether the driver error is wrapped or not. */
export function pgError(err: unknown): { code?: string; constraint?: string } {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const o = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof o.code === "string" && /^[0-9A-Z]{5}$/.test(o.code))
      return { code: o.code, constraint: typeof o.constraint === "string" ? o.constraint : undefined };
    e = o.cause;
  }
  return {};
}
