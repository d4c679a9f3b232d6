import { z } from "zod";
import { acceptingReadBack, Name, SafeText, Timestamp } from "./common";
import { AppConfigPatch } from "./app-config";
import { MIN_PASSWORD_LENGTH } from "./auth";
import { ChatThreadPolicy } from "./chat";

/** An exact origin (scheme, host, optional port); no path, no wildcard, never `*`. */
export const Origin = SafeText.max(300).transform((value, ctx) => {
  try {
    const url = new URL(value);
    if ((url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/$/, "")) return url.origin;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: "custom", message: `"${value}" is not an origin like https://app.example.com` });
  return z.NEVER;
});

/** A BCP 47 locale tag the runtime knows (`en`, `fr-CA`). */
export const LocaleTag = z
  .string()
  .max(35)
  .refine(
    (v) => {
      try {
        return Intl.getCanonicalLocales(v).length === 1;
      } catch {
        return false;
      }
    },
    { message: "is not a BCP 47 locale tag" },
  );

/** An IANA time zone the runtime knows (`UTC`, `Europe/Paris`). */
export const TimeZone = z
  .string()
  .max(64)
  .refine(
    (v) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: v });
        return true;
      } catch {
        return false;
      }
    },
    { message: "is not an IANA time zone" },
  );

// One policy shape for the chat and for tenant settings (decisions.md "AI").
export { ChatThreadPolicy } from "./chat";

export const PasswordRules = z
  .object({
    minLength: z.number().int().min(MIN_PASSWORD_LENGTH).max(128).default(MIN_PASSWORD_LENGTH),
    requireUppercase: z.boolean().default(false),
    requireLowercase: z.boolean().default(false),
    requireDigit: z.boolean().default(false),
    requireSymbol: z.boolean().default(false),
  })
  .strict()
  .meta({ id: "PasswordRules" });
export type PasswordRules = z.infer<typeof PasswordRules>;

/** Credential names: letters, digits, `_`, `-`, `.`. */
const CredentialName = z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, "must be a letter then letters, digits, _ . -");

export const AiSettingsInput = z
  .object({
    provider: Name.max(64).nullable().optional(),
    model: Name.max(128).nullable().optional(),
    chatThreadPolicies: z.array(ChatThreadPolicy).max(100).optional(),
    agentsConfigCredentials: z
      .union([
        z.record(CredentialName, SafeText.min(1).max(8192)),
        // What GET shows: sent back, it means "unchanged".
        z.strictObject({ configured: z.boolean(), names: z.array(z.string()) }).transform(() => undefined),
      ])
      .nullable()
      .optional()
      .meta({
        description:
          "Write-only: replaces every stored credential (null clears them). Never returned; reads list the names only, and that read form (`{ configured, names }`) sent back leaves them unchanged.",
      }),
  })
  .strict();

export const AiSettings = z
  .object({
    provider: z.string().nullable(),
    model: z.string().nullable(),
    chatThreadPolicies: z.array(ChatThreadPolicy),
    agentsConfigCredentials: z
      .object({ configured: z.boolean(), names: z.array(z.string()) })
      .meta({ description: "Whether credentials are stored, and their names; the values are never returned." }),
  })
  .meta({ id: "AiSettings" });

export const EMBED_TOKEN_LIFETIME_MAX = 24 * 60 * 60;

export const TenantSettings = z
  .object({
    allowedOrigins: z.array(z.string()),
    defaultLocale: z.string().nullable(),
    defaultTimeZone: z.string(),
    appConfig: AppConfigPatch,
    ai: AiSettings,
    embedTokenLifetimeSeconds: z.number().int(),
    passwordRules: PasswordRules,
    updatedAt: Timestamp.nullable(),
  })
  .meta({ id: "TenantSettings" });
export type TenantSettings = z.infer<typeof TenantSettings>;

/** `PUT /api/v1/tenant/settings`: every top-level field optional; a field left out keeps its stored value. */
export const TenantSettingsInput = acceptingReadBack(
  z
    .object({
      allowedOrigins: z.array(Origin).max(100).optional(),
      defaultLocale: LocaleTag.nullable().optional(),
      defaultTimeZone: TimeZone.optional(),
      appConfig: AppConfigPatch.optional(),
      ai: AiSettingsInput.optional(),
      embedTokenLifetimeSeconds: z.number().int().min(60).max(EMBED_TOKEN_LIFETIME_MAX).optional(),
      passwordRules: PasswordRules.optional(),
    })
    .strict(),
  TenantSettings,
  "TenantSettingsInput",
);
export type TenantSettingsInput = z.infer<typeof TenantSettingsInput>;
