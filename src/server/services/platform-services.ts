import type { AppDeps } from "../app";
import type { Db } from "../db/connection";
import type { Logger } from "../logger";
import { createEmbedSessions } from "./embed-sessions";
import type { SecretBox } from "./secret-box";
import { createSigningKeyRing } from "./signing-keys";

/** The long-lived services behind the app, built once per process (or per test). */
export async function createPlatformServices(opts: { db: Db; secretBox: SecretBox; logger: Logger; dataDir: string; tokenTtlSeconds?: number }) {
  const keys = createSigningKeyRing(opts.db, opts.secretBox);
  const embedSessions = createEmbedSessions({ db: opts.db, keys, tokenTtlSeconds: opts.tokenTtlSeconds });
  const deps: Pick<AppDeps, "embedSessions"> = { embedSessions };
  return {
    deps,
    keys,
    async close() {},
  };
}
