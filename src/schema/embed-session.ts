import { z } from "zod";
import { Id, SafeJsonObject, SafeText, SafeUrl } from "./common";
import { ExportGrant } from "./export-grants";

/** decisions.md "embedTheme": every field optional; unknown keys are ignored (stripped). */
export const EmbedTheme = z
  .object({
    primaryColor: SafeText.max(100).optional(),
    font: SafeText.max(200).optional(),
    borderRadius: z.union([SafeText.max(50), z.number().min(0).max(1000)]).optional(),
    analyticsChat: z
      .object({
        backgroundColor: SafeText.max(100).optional(),
        chatInput: z.object({ backgroundColor: SafeText.max(100).optional(), borderColor: SafeText.max(100).optional() }).optional(),
      })
      .optional(),
    chat: z.object({ inputColor: SafeText.max(100).optional() }).optional(),
  })
  .meta({ id: "EmbedTheme" });
export type EmbedTheme = z.infer<typeof EmbedTheme>;

export const UserAttributeValue = z.union([
  SafeText.max(1000),
  z.number(),
  z.boolean(),
  z.array(SafeText.max(1000)).max(1000),
  z.array(z.number()).max(1000),
  z.null(),
]);
export type UserAttributeValue = z.infer<typeof UserAttributeValue>;

export const EMBED_TENANT_NAME = /^[a-z][a-z0-9-]{3,34}[a-z0-9]$/;

export const EmbedSessionSettings = z
  .object({
    allowAi: z.boolean().optional(),
    showDashboardChat: z.boolean().optional(),
    showWorkbookChat: z.boolean().optional(),
    /** Chat answers may be saved as reports in the creator's workspace (creator sessions; docs/ai.md). */
    allowChatWorkspaceAuthoring: z.boolean().optional(),
    showAiWidgets: z.boolean().optional(),
    locale: SafeText.max(35).optional(),
    timezone: SafeText.max(64).optional(),
    /** Export formats the viewer may use, enforced by the server (docs/embedding.md "Export grants per format"). */
    allowExport: ExportGrant.optional(),
  })
  .strict()
  .meta({ id: "EmbedSessionSettings" });

const groupName = SafeText.trim()
  .min(1)
  .max(100)
  .refine((v) => !v.startsWith("system:"), "group names cannot start with 'system:'");

/** decisions.md "Signed embedding": the body of `POST /api/v1/embed/generate-session`. */
export const GenerateSessionInput = z
  .object({
    deploymentId: Id,
    externalId: SafeText.trim()
      .min(1)
      .max(255)
      .transform((v) => v.toLowerCase())
      .optional(),
    email: z.email().max(320).optional(),
    userProfile: z
      .object({ displayName: SafeText.max(200).optional(), picture: SafeUrl.max(2000).optional() })
      .strict()
      .optional(),
    embedTenantName: z.string().regex(EMBED_TENANT_NAME, "must match ^[a-z][a-z0-9-]{3,34}[a-z0-9]$ (5-36 lowercase letters, digits, hyphens)").optional(),
    embedTenantProfile: z
      .object({ displayName: SafeText.max(200).optional() })
      .strict()
      .optional(),
    groups: z.array(groupName).max(100).optional(),
    tenantGroups: z.array(groupName).max(100).optional(),
    tenantGroupDefinitions: z
      .array(z.object({ name: groupName, displayName: SafeText.max(200).optional() }).strict())
      .max(100)
      .optional(),
    userAttributes: z
      .array(z.object({ name: z.string().regex(/^[_a-zA-Z][_a-zA-Z0-9]{0,63}$/), value: UserAttributeValue }).strict())
      .max(100)
      .optional(),
    securityContext: SafeJsonObject.optional(),
    settings: EmbedSessionSettings.optional(),
    embedTheme: EmbedTheme.optional(),
    creatorMode: z.union([z.boolean(), SafeJsonObject]).optional(),
  })
  .strict()
  .meta({ id: "GenerateSessionInput" });
export type GenerateSessionInput = z.infer<typeof GenerateSessionInput>;
