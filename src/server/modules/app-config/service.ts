import { AppConfigPatch, resolveAppConfig, type AppConfig } from "../../../schema/app-config";
import type { AppDeps } from "../../context";
import type { Principal } from "../../domain/actor";

/**
 * The stored app-config patch that applies to the caller (their tenant's settings for an embed
 * user, the account's for a platform user). Tenant settings are written by the administration
 * feature; until they are stored, nothing applies and every field keeps its default.
 */
export async function readAppConfigPatch(deps: AppDeps, principal: Principal): Promise<AppConfigPatch | null> {
  void deps;
  void principal;
  return null;
}

/** `GET /api/v1/app-config`: the defaults of decisions.md "Creator mode" with the stored patch applied. */
export async function appConfigFor(deps: AppDeps, principal: Principal): Promise<AppConfig> {
  const stored = await readAppConfigPatch(deps, principal);
  // A stored document that no longer fits the schema is ignored rather than served half-valid.
  const patch = stored === null ? null : AppConfigPatch.safeParse(stored);
  return resolveAppConfig(patch?.success ? patch.data : null);
}
