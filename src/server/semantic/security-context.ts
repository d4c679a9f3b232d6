import { z } from "zod";
import { UserAttributeValue as userAttributeValueSchema, type UserAttributeValue } from "../../schema/embed-session";

export type { UserAttributeValue };

/** Platform roles, lowest to highest. */
export const platformRoles = ["viewer", "ai_bi_user", "developer", "admin"] as const;
export type PlatformRole = (typeof platformRoles)[number];

/**
 * Who is asking. Row-level security policies read it; it is part of every cache key.
 * A platform admin is just another context (role "admin"); an embed viewer carries
 * `embedTenant` and the session's groups and user attributes.
 */
export interface SecurityContext {
  userId?: number | null;
  externalId?: string | null;
  embedTenant: string | null;
  groups: string[];
  userAttributes: Record<string, UserAttributeValue>;
  role?: PlatformRole;
}

/** For callers that build a context from untrusted JSON (tests, CLI). */
export const securityContextSchema = z.object({
  userId: z.number().int().nullable().optional(),
  externalId: z.string().nullable().optional(),
  embedTenant: z.string().nullable(),
  groups: z.array(z.string()),
  userAttributes: z.record(z.string(), userAttributeValueSchema),
  role: z.enum(platformRoles).optional(),
});
