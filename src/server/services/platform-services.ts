import type { AppDeps } from "../app";
import type { Db } from "../db/connection";
import type { Logger } from "../logger";
import { createEmbedSessions } from "./embed-sessions";
import type { SecretBox } from "./secret-box";
import { createSigningKeyRing } from "./signing-keys";
import { loginFor } from "./login";
import { createQueryEngineRegistry } from "./query-engines";

/** The long-lived services behind the app, built once per process (or per test). */
export async function createPlatformServices(opts: { db: Db; secretBox: SecretBox; logger: Logger; tokenTtlSeconds?: number; loginSessionTtlSeconds?: number }) {
  const keys = createSigningKeyRing(opts.db, opts.secretBox);
  const embedSessions = createEmbedSessions({ db: opts.db, keys, tokenTtlSeconds: opts.tokenTtlSeconds });
  const login = loginFor(opts.db, { sessionTtlSeconds: opts.loginSessionTtlSeconds });
  const queryEngines = createQueryEngineRegistry({ db: opts.db, secretBox: opts.secretBox, logger: opts.logger });
  const deps: Pick<AppDeps, "embedSessions" | "authenticateCookie" | "queryEngines"> = { embedSessions, authenticateCookie: login.authenticateCookie, queryEngines };
  return {
    deps,
    async close() {
      await queryEngines.close();
    },
  };
}
