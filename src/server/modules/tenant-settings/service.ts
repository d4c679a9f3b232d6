import { eq } from "drizzle-orm";
import type { AppConfigPatch } from "../../../schema/app-config";
import {
  EMBED_TOKEN_LIFETIME_MAX,
  PasswordRules,
  type ChatThreadPolicy,
  type PasswordRules as PasswordRulesT,
  type TenantSettings,
  type TenantSettingsInput,
} from "../../../schema/tenant-settings";
import { publishInvalidation } from "../../cluster/invalidation-bus";
import type { Db } from "../../db/connection";
import { accountSettings, tenantSecrets } from "../../db/schema";
import type { SecretBox } from "../../crypto/secret-box";
import { badRequest } from "../../domain/errors";
import type { Logger } from "../../logger";
import { writeLog } from "../deployment-logs/service";

const AGENTS_CREDENTIALS = "agentsConfigCredentials";

/** The non-secret part of the settings, as kept in `account_settings.settings`. */
interface StoredSettings {
  defaultLocale?: string | null;
  defaultTimeZone?: string;
  appConfig?: AppConfigPatch;
  ai?: { provider?: string | null; model?: string | null; chatThreadPolicies?: ChatThreadPolicy[]; credentialNames?: string[] };
  embedTokenLifetimeSeconds?: number;
  passwordRules?: Partial<PasswordRulesT>;
}

/** The tenant settings with their defaults, secrets reduced to their names. */
export async function readTenantSettings(db: Db): Promise<TenantSettings> {
  const [row] = await db.select().from(accountSettings).where(eq(accountSettings.id, 1));
  const s = (row?.settings ?? {}) as StoredSettings;
  const names = s.ai?.credentialNames ?? [];
  return {
    allowedOrigins: row?.allowedOrigins ?? [],
    defaultLocale: s.defaultLocale ?? null,
    defaultTimeZone: s.defaultTimeZone ?? "UTC",
    appConfig: s.appConfig ?? {},
    ai: {
      provider: s.ai?.provider ?? null,
      model: s.ai?.model ?? null,
      chatThreadPolicies: s.ai?.chatThreadPolicies ?? [],
      agentsConfigCredentials: { configured: names.length > 0, names },
    },
    embedTokenLifetimeSeconds: s.embedTokenLifetimeSeconds ?? EMBED_TOKEN_LIFETIME_MAX,
    passwordRules: PasswordRules.parse(s.passwordRules ?? {}),
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

/** The stored app configuration patch (what `GET /api/v1/app-config` resolves against its defaults). */
export async function readStoredAppConfig(db: Db): Promise<AppConfigPatch | null> {
  const [row] = await db.select({ settings: accountSettings.settings }).from(accountSettings).where(eq(accountSettings.id, 1));
  return ((row?.settings ?? {}) as StoredSettings).appConfig ?? null;
}

/** The AI settings for the chat: provider, model, thread policies and the decrypted agents' credentials (server-side only). */
export async function readAiSettingsWithCredentials(db: Db, box: SecretBox) {
  const settings = await readTenantSettings(db);
  const [secret] = await db.select().from(tenantSecrets).where(eq(tenantSecrets.name, AGENTS_CREDENTIALS));
  const credentials = secret ? (JSON.parse(box.open(secret.valueEncrypted)) as Record<string, string>) : {};
  return { provider: settings.ai.provider, model: settings.ai.model, chatThreadPolicies: settings.ai.chatThreadPolicies, agentsConfigCredentials: credentials };
}

/** Checks a new password against the tenant's rules; a `validation_failed` naming each rule it breaks. */
export function checkPassword(rules: PasswordRulesT, password: string, path: (string | number)[] = ["password"]) {
  const problems: string[] = [];
  if ([...password].length < rules.minLength) problems.push(`must be at least ${rules.minLength} characters`);
  if (rules.requireUppercase && !/\p{Lu}/u.test(password)) problems.push("must contain an upper-case letter");
  if (rules.requireLowercase && !/\p{Ll}/u.test(password)) problems.push("must contain a lower-case letter");
  if (rules.requireDigit && !/\p{Nd}/u.test(password)) problems.push("must contain a digit");
  if (rules.requireSymbol && !/[^\p{L}\p{Nd}\s]/u.test(password)) problems.push("must contain a symbol");
  if (problems.length)
    throw badRequest(
      `The password ${problems[0]}`,
      problems.map((message) => ({ path, message })),
    );
}

/**
 * Applies a settings document in one transaction: the fields sent replace the stored ones,
 * the credentials are sealed, and an audit line naming the changed fields (never their
 * values) goes to the logs.
 */
export async function writeTenantSettings(
  deps: { db: Db; secretBox: SecretBox; logger: Logger },
  actorUserId: number,
  input: TenantSettingsInput,
): Promise<TenantSettings> {
  await deps.db.transaction(async (tx) => {
    await tx.insert(accountSettings).values({ id: 1 }).onConflictDoNothing();
    // Row lock: two concurrent writes apply one after the other, neither loses the other's fields.
    const [row] = await tx.select().from(accountSettings).where(eq(accountSettings.id, 1)).for("update");
    const stored = { ...((row?.settings ?? {}) as StoredSettings) };
    const changed: string[] = [];
    let allowedOrigins = row?.allowedOrigins ?? [];
    if (input.allowedOrigins !== undefined) {
      allowedOrigins = [...new Set(input.allowedOrigins)];
      changed.push("allowedOrigins");
    }
    for (const key of ["defaultLocale", "defaultTimeZone", "appConfig", "embedTokenLifetimeSeconds", "passwordRules"] as const) {
      if (input[key] === undefined) continue;
      (stored as Record<string, unknown>)[key] = input[key];
      changed.push(key);
    }
    if (input.ai !== undefined) {
      const ai = { ...stored.ai };
      for (const key of ["provider", "model", "chatThreadPolicies"] as const) {
        if (input.ai[key] !== undefined) {
          (ai as Record<string, unknown>)[key] = input.ai[key];
          changed.push(`ai.${key}`);
        }
      }
      const credentials = input.ai.agentsConfigCredentials;
      if (credentials !== undefined) {
        changed.push("ai.agentsConfigCredentials");
        const names = credentials ? Object.keys(credentials).sort() : [];
        ai.credentialNames = names;
        if (names.length) {
          const sealed = deps.secretBox.seal(JSON.stringify(credentials));
          await tx
            .insert(tenantSecrets)
            .values({ name: AGENTS_CREDENTIALS, valueEncrypted: sealed })
            .onConflictDoUpdate({ target: tenantSecrets.name, set: { valueEncrypted: sealed, updatedAt: new Date() } });
        } else {
          await tx.delete(tenantSecrets).where(eq(tenantSecrets.name, AGENTS_CREDENTIALS));
        }
      }
      stored.ai = ai;
    }
    await tx
      .update(accountSettings)
      .set({ settings: stored as Record<string, unknown>, allowedOrigins, updatedAt: new Date() })
      .where(eq(accountSettings.id, 1));
    await writeLog(tx, { deploymentId: null, container: "MAIN", message: "tenant settings changed", details: { actorUserId, changed } });
    deps.logger.info("tenant settings changed", { actorUserId, changed });
  });
  // Every node drops what it keeps of the settings (the AI settings a chat turn reads, say).
  await publishInvalidation(deps.db, "settings");
  return readTenantSettings(deps.db);
}

/** Embed token lifetime in force: the tenant setting, never above the server's maximum. */
export async function readEmbedTokenLifetimeSeconds(db: Db): Promise<number> {
  const [row] = await db.select({ settings: accountSettings.settings }).from(accountSettings).where(eq(accountSettings.id, 1));
  const stored = ((row?.settings ?? {}) as StoredSettings).embedTokenLifetimeSeconds;
  return Math.min(stored ?? EMBED_TOKEN_LIFETIME_MAX, EMBED_TOKEN_LIFETIME_MAX);
}
