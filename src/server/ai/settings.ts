/**
 * AI settings: the provider, its server, model and key, the turn's time budget and the chat
 * thread policies. They come from the environment (`SVC_AI_*`); tenant settings may override
 * them — `readAiSettings` is the one place that reads them.
 */
import { z } from "zod";
import { ChatThreadPolicy } from "../../schema/chat";
import { onInvalidation } from "../cluster/invalidation-bus";
import type { AppDeps, Principal } from "../context";
import { readAiSettingsWithCredentials } from "../modules/tenant-settings/service";

export interface AiSettings {
  provider: "builtin" | "openai-compatible";
  baseUrl?: string;
  /** Never logged, never returned, never put into a prompt. */
  apiKey?: string;
  model?: string;
  /** How long one turn may take, all steps included. */
  timeBudgetMs: number;
  chatThreadPolicies: ChatThreadPolicy[];
}

const Env = z.object({
  SVC_AI_PROVIDER: z.enum(["builtin", "openai-compatible"]).default("builtin"),
  SVC_AI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  SVC_AI_API_KEY: z.string().min(1).optional(),
  SVC_AI_MODEL: z.string().min(1).max(200).optional(),
  SVC_AI_TIME_BUDGET_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
});

const ENV_KEYS = ["SVC_AI_PROVIDER", "SVC_AI_BASE_URL", "SVC_AI_API_KEY", "SVC_AI_MODEL", "SVC_AI_TIME_BUDGET_MS"] as const;
let lastEnv: { key: string; settings: AiSettings } | null = null;

/** The settings of the environment; a bad value is named (the key, never its value). Read again only when a value changed. */
export function aiSettingsFromEnv(env: Record<string, string | undefined> = process.env): AiSettings {
  const key = JSON.stringify(ENV_KEYS.map((k) => env[k] ?? null));
  if (lastEnv?.key === key) return { ...lastEnv.settings, chatThreadPolicies: [...lastEnv.settings.chatThreadPolicies] };
  const settings = parseEnv(env);
  lastEnv = { key, settings };
  return { ...settings, chatThreadPolicies: [...settings.chatThreadPolicies] };
}

function parseEnv(env: Record<string, string | undefined>): AiSettings {
  const parsed = Env.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid AI settings: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`);
  const e = parsed.data;
  if (e.SVC_AI_PROVIDER === "openai-compatible" && !e.SVC_AI_BASE_URL)
    throw new Error("Invalid AI settings: SVC_AI_BASE_URL is required for openai-compatible");
  return {
    provider: e.SVC_AI_PROVIDER,
    baseUrl: e.SVC_AI_BASE_URL,
    apiKey: e.SVC_AI_API_KEY,
    model: e.SVC_AI_MODEL,
    timeBudgetMs: e.SVC_AI_TIME_BUDGET_MS,
    chatThreadPolicies: [],
  };
}

type TenantAi = Awaited<ReturnType<typeof readAiSettingsWithCredentials>>;

/**
 * The tenant's AI settings, per database handle, for a short time at most: every turn needs
 * them, and they change rarely. A tenant-settings write announces `settings` on the
 * invalidation bus (every node's entry is dropped); the time limit bounds a missed notification.
 */
const TENANT_AI_TTL_MS = 30_000;
const tenantAiCache = new WeakMap<AppDeps["db"], { value: Promise<TenantAi>; at: number; generation: number }>();
const generations = new WeakMap<AppDeps["db"], number>();

function tenantAiSettings(deps: AppDeps): Promise<TenantAi> {
  const db = deps.db;
  let generation = generations.get(db);
  if (generation === undefined) {
    generations.set(db, (generation = 0));
    onInvalidation(db, "settings", () => {
      generations.set(db, (generations.get(db) ?? 0) + 1);
      tenantAiCache.delete(db);
    });
  }
  const cached = tenantAiCache.get(db);
  if (cached && cached.generation === generation && Date.now() - cached.at < TENANT_AI_TTL_MS) return cached.value;
  const value = readAiSettingsWithCredentials(db, deps.secretBox);
  const entry = { value, at: Date.now(), generation };
  tenantAiCache.set(db, entry);
  // A failed read is not kept; neither is one that an invalidation overtook.
  value.catch(() => {
    if (tenantAiCache.get(db) === entry) tenantAiCache.delete(db);
  });
  return value;
}

/**
 * The AI settings that apply to a caller: the environment's, overridden by the caller's
 * tenant settings (provider, model, key, `chatThreadPolicies`) where tenant settings exist.
 */
export async function readAiSettings(deps: AppDeps, principal: Principal): Promise<AiSettings> {
  void principal; // one tenant-settings document per installation (docs/administration.md)
  const env = aiSettingsFromEnv();
  const tenant = await tenantAiSettings(deps);
  // A provider named in tenant settings applies when it can work here: openai-compatible needs
  // the server's SVC_AI_BASE_URL (the platform decides which hosts it calls, not the tenant).
  const provider = tenant.provider === "builtin" || (tenant.provider === "openai-compatible" && env.baseUrl) ? tenant.provider : env.provider;
  return {
    ...env,
    provider,
    model: tenant.model ?? env.model,
    // The model server's key may be stored write-only as the `apiKey` credential.
    apiKey: tenant.agentsConfigCredentials.apiKey ?? env.apiKey,
    chatThreadPolicies: tenant.chatThreadPolicies.length ? tenant.chatThreadPolicies : env.chatThreadPolicies,
  };
}
