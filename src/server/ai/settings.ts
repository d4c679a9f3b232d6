/**
 * AI settings: the provider, its server, model and key, the turn's time budget and the chat
 * thread policies. They come from the environment (`SVC_AI_*`, validated at start-up by
 * config.ts and handed over as `deps.ai`); tenant settings may override them —
 * `readAiSettings` is the one place that reads them.
 */
import { DEFAULT_AI_SETTINGS } from "../config";
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
  const env: AiSettings = { ...(deps.ai ?? DEFAULT_AI_SETTINGS), chatThreadPolicies: [] };
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
