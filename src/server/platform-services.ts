import type { AppDeps } from "./context";
import type { Db } from "./db/connection";
import type { Logger } from "./logger";
import { createEmbedSessions } from "./modules/embed-sessions/service";
import type { SecretBox } from "./crypto/secret-box";
import { createSigningKeyRing } from "./modules/embed-sessions/signing-keys";
import { loginFor } from "./modules/auth/service";
import { createQueryEngineRegistry } from "./modules/query/engines";
import { createWorkloadAuthenticator } from "./modules/oidc-token-configs/authenticate";
import { startNotificationScheduler } from "./modules/notifications/service";
import { startRollupBuilds } from "./modules/rollups/service";
import type { JobRunner } from "./cluster/jobs";
import { onInvalidation, publishInvalidation } from "./cluster/invalidation-bus";
import { deploymentRowCache } from "./modules/deployments/service";
import { announceRequestCacheInvalidations, dropRequestCache, type RequestCacheName } from "./domain/request-caches";

/** The long-lived services behind the app, built once per process (or per test). */
export async function createPlatformServices(opts: {
  db: Db;
  secretBox: SecretBox;
  logger: Logger;
  tokenTtlSeconds?: number;
  loginSessionTtlSeconds?: number;
  regions?: { id: string; name: string | null }[];
  smtp?: { url: string; from: string };
  /** This process as a node of the cluster (cluster/node.ts): the one registry the pods list and the notification deliveries name. */
  clusterNode?: AppDeps["clusterNode"];
  /** The cluster's job runner on this node: rollups are built by it (none without). */
  jobs?: JobRunner;
}) {
  const keys = createSigningKeyRing(opts.db, opts.secretBox);
  const embedSessions = createEmbedSessions({ db: opts.db, keys, tokenTtlSeconds: opts.tokenTtlSeconds });
  const login = loginFor(opts.db, { sessionTtlSeconds: opts.loginSessionTtlSeconds });
  const queryEngines = createQueryEngineRegistry({ db: opts.db, secretBox: opts.secretBox, logger: opts.logger });
  const deps: Pick<AppDeps, "embedSessions" | "authenticateLoginToken" | "queryEngines" | "regions" | "clusterNode" | "authenticateWorkloadToken" | "smtp"> = {
    embedSessions,
    authenticateLoginToken: login.authenticateLoginToken,
    queryEngines,
    regions: opts.regions ?? [{ id: "local", name: null }],
    clusterNode: opts.clusterNode,
    authenticateWorkloadToken: createWorkloadAuthenticator({ db: opts.db, logger: opts.logger }),
    smtp: opts.smtp,
  };
  // A key revoked or a user changed on any node reaches every node's caches of principals and
  // security contexts at once (docs/scaling.md).
  const announcer = (name: RequestCacheName) =>
    void publishInvalidation(opts.db, "request-cache", name).catch((err: unknown) => opts.logger.warn("request-cache announce failed", { error: String(err) }));
  announceRequestCacheInvalidations(announcer);
  const stopCacheListener = onInvalidation(opts.db, "request-cache", (key) => dropRequestCache(key as RequestCacheName | null));
  // A deployment changed or deleted on any node: this node reads it again.
  const stopDeploymentListener = onInvalidation(opts.db, "deployment", () => deploymentRowCache.invalidate());
  const scheduler = startNotificationScheduler({ db: opts.db, logger: opts.logger, queryEngines, smtp: opts.smtp, clusterNode: opts.clusterNode });
  // Rollups are built by the job runner of the cluster (one node per build); a process without one (a test) builds none.
  const rollups = opts.jobs ? startRollupBuilds({ db: opts.db, logger: opts.logger, jobs: opts.jobs, source: queryEngines.source }) : undefined;
  return {
    deps,
    async close() {
      scheduler.stop();
      rollups?.stop();
      stopCacheListener();
      stopDeploymentListener();
      announceRequestCacheInvalidations(null);
      await queryEngines.close();
    },
  };
}
