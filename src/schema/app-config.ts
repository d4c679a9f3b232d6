import { z } from "zod";
import { Name, SafeText } from "./common";

/**
 * What the creator-mode app, the chat and the embeds read for their caller (decisions.md
 * "Creator mode"): `GET /api/v1/app-config`. Written through tenant settings
 * (`PUT /api/v1/tenant/settings`, `appConfig`); every field has a default, so a stored document
 * may name only what it changes.
 */
export const LocalizedTitle = z.object({ locale: Name, value: SafeText.max(255) }).meta({ id: "LocalizedTitle" });

export const AppConfig = z
  .object({
    appTheme: z.string().max(64).nullable().default(null).meta({ description: "Name of an embed theme applied to the app, or null for the default." }),
    applyThemeGlobally: z.boolean().default(false),
    creatorMode: z
      .object({
        localizedTitles: z.array(LocalizedTitle).max(100).default([]),
        showGeneratedSql: z.boolean().default(false),
        showSemanticSql: z.boolean().default(true),
      })
      .prefault({}),
    embedding: z
      .object({
        locale: z.string().max(35).nullable().default(null),
        showDashboardChat: z.boolean().default(false),
      })
      .prefault({}),
    sheetsUi: z.object({ showAppliedFilters: z.boolean().default(true) }).prefault({}),
  })
  .meta({ id: "AppConfig" });
export type AppConfig = z.infer<typeof AppConfig>;

/** A partial app configuration as stored in tenant settings (every field optional, deep). */
export const AppConfigPatch = z
  .object({
    appTheme: z.string().max(64).nullable().optional(),
    applyThemeGlobally: z.boolean().optional(),
    creatorMode: z
      .object({
        localizedTitles: z.array(LocalizedTitle).max(100).optional(),
        showGeneratedSql: z.boolean().optional(),
        showSemanticSql: z.boolean().optional(),
      })
      .optional(),
    embedding: z.object({ locale: z.string().max(35).nullable().optional(), showDashboardChat: z.boolean().optional() }).optional(),
    sheetsUi: z.object({ showAppliedFilters: z.boolean().optional() }).optional(),
  })
  .strict()
  .meta({ id: "AppConfigPatch" });
export type AppConfigPatch = z.infer<typeof AppConfigPatch>;

/** The defaults with a stored patch applied. */
export function resolveAppConfig(patch: AppConfigPatch | null | undefined): AppConfig {
  const p = patch ?? {};
  return AppConfig.parse({
    ...p,
    creatorMode: { ...p.creatorMode },
    embedding: { ...p.embedding },
    sheetsUi: { ...p.sheetsUi },
  });
}
