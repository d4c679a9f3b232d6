import { AppConfigPatch, resolveAppConfig, type AppConfig } from "../../../schema/app-config";
import type { AppDeps } from "../../context";
import type { Principal } from "../../domain/actor";
import { readStoredAppConfig } from "../tenant-settings/service";

/**
 * The stored app-config patch that applies to the caller: `appConfig` of the tenant settings
 * (`PUT /api/v1/tenant/settings`, docs/administration.md); fields it does not name keep their defaults.
 */
export async function readAppConfigPatch(deps: AppDeps, principal: Principal): Promise<AppConfigPatch | null> {
  void principal; // one tenant-settings document per installation (docs/administration.md)
  return readStoredAppConfig(deps.db);
}

/** `GET /api/v1/app-config`: the defaults of decisions.md "Creator mode" with the stored patch applied. */
export async function appConfigFor(deps: AppDeps, principal: Principal): Promise<AppConfig> {
  const stored = await readAppConfigPatch(deps, principal);
  // A stored document that no longer fits the schema is ignored rather than served half-valid.
  const patch = stored === null ? null : AppConfigPatch.safeParse(stored);
  return resolveAppConfig(patch?.success ? patch.data : null);
}
