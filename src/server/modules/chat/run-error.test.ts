import { describe, expect, it } from "vitest";
import { AiError } from "../../ai/types";
import { DOMAIN_ERROR_CODES, DomainError, forbidden } from "../../domain/errors";
import { domainErrorOf, errorLine, INTERNAL_ERROR_LINE } from "./run-error";

const AI_CODES: AiError["code"][] = ["ai_rate_limited", "ai_provider_failed", "ai_timeout", "ai_step_limit", "ai_disabled", "ai_invalid_response"];

describe("domainErrorOf", () => {
  it.each(AI_CODES)("makes an AiError %s a DomainError of the same code and message", (code) => {
    const cause = new AiError(code, "The model server is busy");
    const error = domainErrorOf(cause);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code, message: "The model server is busy", cause });
    expect(DOMAIN_ERROR_CODES).toContain(code);
    expect(errorLine(error!)).toEqual({ error: { code, message: "The model server is busy" } });
  });

  it("keeps a DomainError as it is, and leaves any other error to the caller", () => {
    const refusal = forbidden("No view of this deployment may be asked about in a chat");
    expect(domainErrorOf(refusal)).toBe(refusal);
    expect(domainErrorOf(new Error("socket hang up"))).toBeNull();
    expect(domainErrorOf("failed")).toBeNull();
    expect(INTERNAL_ERROR_LINE).toEqual({ error: { code: "internal_error", message: "The answer failed" } });
  });
});
