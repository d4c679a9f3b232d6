/**
 * The one place an AiError becomes a DomainError: its codes are in the domain's code list, so
 * an answer that fails says `{"error": {code, message}}` with a code a host may branch on.
 */
import { DomainError, type DomainErrorCode } from "../../domain/errors";
import { AiError } from "../../ai/types";

/** The error as the domain names it; null for an unexpected one (logged, then said as `internal_error`). */
export function domainErrorOf(e: unknown): DomainError | null {
  if (e instanceof DomainError) return e;
  if (e instanceof AiError) {
    // Every AiError code is a domain code: a new one fails to compile here until it is listed.
    const code: DomainErrorCode = e.code;
    return new DomainError(code, e.message, { cause: e });
  }
  return null;
}

/** The last line of an answer that failed. */
export function errorLine(error: DomainError): { error: { code: string; message: string } } {
  return { error: { code: error.code, message: error.message } };
}

/** The last line of an answer that failed unexpectedly: nothing of the cause is said. */
export const INTERNAL_ERROR_LINE = { error: { code: "internal_error", message: "The answer failed" } } as const;
