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
import { startNodeRegistry } from "./modules/operations/node-registry";

/** The long-lived services behind the app, built once per process (or per test). */
export async function createPlatformServices(opts: {
  db: Db;
  secretBox: SecretBox;
  logger: Logger;
  tokenTtlSeconds?: number;
  loginSessionTtlSeconds?: number;
  regions?: { id: string; name: string | null }[];
  logRetentionDays?: number;
  smtp?: { url: string; from: string };
}) {
  const keys = createSigningKeyRing(opts.db, opts.secretBox);
  const embedSessions = createEmbedSessions({ db: opts.db, keys, tokenTtlSeconds: opts.tokenTtlSeconds });
  const login = loginFor(opts.db, { sessionTtlSeconds: opts.loginSessionTtlSeconds });
  const queryEngines = createQueryEngineRegistry({ db: opts.db, secretBox: opts.secretBox, logger: opts.logger });
  const nodeRegistry = await startNodeRegistry({ db: opts.db, logger: opts.logger, logRetentionDays: opts.logRetentionDays });
  const deps: Pick<AppDeps, "embedSessions" | "authenticateLoginToken" | "queryEngines" | "regions" | "nodeRegistry" | "authenticateWorkloadToken" | "smtp"> = {
    embedSessions,
    authenticateLoginToken: login.authenticateLoginToken,
    queryEngines,
    regions: opts.regions ?? [{ id: "local", name: null }],
    nodeRegistry,
    authenticateWorkloadToken: createWorkloadAuthenticator({ db: opts.db, logger: opts.logger }),
    smtp: opts.smtp,
  };
  const scheduler = startNotificationScheduler({ db: opts.db, logger: opts.logger, queryEngines, smtp: opts.smtp, nodeRegistry });
  return {
    deps,
    async close() {
      scheduler.stop();
      await nodeRegistry.stop();
      await queryEngines.close();
    },
  };
}
