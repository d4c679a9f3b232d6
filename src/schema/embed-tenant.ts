import { z } from "zod";
import { acceptingReadBack, SafeText, Timestamp } from "./common";
import { EMBED_TENANT_NAME } from "./embed-session";

/** An embed tenant: the host's customer; holds embed users and embed groups. */
export const EmbedTenant = z
  .object({
    id: z.number().int(),
    name: z.string().meta({ description: "Matches ^[a-z][a-z0-9-]{3,34}[a-z0-9]$ (the `embedTenantName` of sessions)." }),
    displayName: z.string().nullable(),
    userCount: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "EmbedTenant" });
export type EmbedTenant = z.infer<typeof EmbedTenant>;

export const EmbedUser = z
  .object({
    id: z.number().int(),
    externalId: z.string(),
    email: z.string().nullable(),
    displayName: z.string().nullable(),
    picture: z.string().nullable(),
    userAttributes: z.record(z.string(), z.unknown()),
    lastSeenAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "EmbedUser" });
export type EmbedUser = z.infer<typeof EmbedUser>;

export const EmbedGroup = z
  .object({
    id: z.number().int(),
    embedTenantName: z.string(),
    name: z.string(),
    displayName: z.string().nullable(),
    memberCount: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "EmbedGroup" });
export type EmbedGroup = z.infer<typeof EmbedGroup>;

/** Group names are the host's; the `system:` prefix is reserved for the platform. */
export const EmbedGroupName = SafeText.trim()
  .min(1)
  .max(100)
  .refine((v) => !v.startsWith("system:"), "group names cannot start with 'system:'");

export const EmbedTenantNameParam = z.string().regex(EMBED_TENANT_NAME, "not an embed tenant name");

export const CreateEmbedGroupInput = z
  .object({ name: EmbedGroupName, displayName: SafeText.trim().max(200).nullable().optional() })
  .strict()
  .meta({ id: "CreateEmbedGroupInput" });

export const UpdateEmbedGroupInput = z
  .object({ name: EmbedGroupName.optional(), displayName: SafeText.trim().max(200).nullable().optional() })
  .strict()
  .meta({ id: "UpdateEmbedGroupInput" });

export const EmbedGroupMembersInput = z
  .object({
    externalIds: z
      .array(
        SafeText.trim()
          .min(1)
          .max(255)
          .transform((v) => v.toLowerCase()),
      )
      .min(1)
      .max(1000)
      .meta({ description: "Embed users of the group's tenant, by externalId (trimmed, lowercased)." }),
  })
  .strict()
  .meta({ id: "EmbedGroupMembersInput" });

export const EmbedAccessAction = z.enum(["read", "none"]);
export type EmbedAccessAction = z.infer<typeof EmbedAccessAction>;

/** One rule: for one tenant, or (embedTenantName null) for all embed users. */
export const EmbedAccessRule = z
  .object({
    embedTenantName: z
      .string()
      .regex(EMBED_TENANT_NAME, "must match ^[a-z][a-z0-9-]{3,34}[a-z0-9]$")
      .nullable()
      .meta({ description: "The tenant, or null for all embed users. A tenant's rule beats the all-users rule." }),
    action: EmbedAccessAction,
  })
  .strict()
  .meta({ id: "EmbedAccessRule" });
export type EmbedAccessRule = z.infer<typeof EmbedAccessRule>;

export const EmbedAccess = z
  .object({
    workbookId: z.number().int(),
    dashboardPublicId: z.string().nullable(),
    allowEmbed: z.boolean(),
    rules: z.array(EmbedAccessRule),
  })
  .meta({ id: "EmbedAccess" });
export type EmbedAccess = z.infer<typeof EmbedAccess>;

export const SetEmbedAccessInput = acceptingReadBack(
  z
    .object({
      rules: z.array(EmbedAccessRule).max(1000),
      replace: z.boolean().optional().meta({ description: "When true, rules not listed are removed; otherwise only the listed rules change." }),
    })
    .strict(),
  EmbedAccess,
  "SetEmbedAccessInput",
);

export const UpdateEmbedDashboardInput = z.object({ allowEmbed: z.boolean() }).strict().meta({ id: "UpdateEmbedDashboardInput" });

export const EmbedDashboardSettings = z
  .object({ publicId: z.string(), deploymentId: z.number().int(), workbookId: z.number().int(), allowEmbed: z.boolean() })
  .meta({ id: "EmbedDashboardSettings" });
