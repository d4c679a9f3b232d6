/**
 * What every part of the server is handed: the long-lived dependencies of the app and the
 * actor types. Imported by the HTTP layer, the modules and the platform start-up; it imports
 * only leaf modules (storage, logging, the query engines, the session service), never a route
 * or the HTTP layer, so nothing it imports imports it back.
 */
import type { AiEnvSettings } from "./config";
import type { Db } from "./db/connection";
import type { DevFront } from "./dev-front";
import type { Principal } from "./domain/actor";
import type { Logger } from "./logger";
import type { SecretBox } from "./crypto/secret-box";
import type { EmbedSessions } from "./modules/embed-sessions/service";
import type { KnownChatThreads } from "./modules/chat/known-threads";
import type { ChatRunRegistry } from "./modules/chat/run-registry";
import type { QueryEngineRegistry } from "./modules/query/engines";

export type { EmbedPrincipal, Principal, Role, UserPrincipal } from "./domain/actor";

/**
 * The embed app served under /embed: the build (`dir`), or in development (`npm run dev`) its
 * sources through a dev server in front of the platform (`dev`, dev-front.ts).
 */
export type EmbedAssets =
  | {
      /** Folder holding index.html and assets/. */
      dir: string;
      dev?: undefined;
    }
  | { dir?: undefined; dev: Pick<DevFront, "page"> };

/** Options of the access log (http/access-log.ts). */
export interface AccessLogOptions {
  /** A request taking longer than this (ms, until its answer starts) is logged at `warn`; 0 turns that off. Default 1000 (SVC_SLOW_REQUEST_MS). */
  slowRequestMs?: number;
  /** 4xx answers are counted and summed up in one `info` line per window of this many ms; default 60 000. */
  clientErrorWindowMs?: number;
}

/** Everything the HTTP app needs; `createApp` builds no resources of its own. */
export interface AppDeps {
  db: Db;
  logger: Logger;
  secretBox: SecretBox;
  /** Base URL the platform is reached at (for links it prints or returns). */
  publicUrl: string;
  /** Built embed app; absent in API-only tests. */
  embedAssets?: EmbedAssets;
  /** One semantic query engine per deployment. */
  queryEngines: QueryEngineRegistry;
  /** Signed-embedding sessions and token verification. */
  embedSessions: EmbedSessions;
  /** Verifies a signed-embed token (defaults to embedSessions.authenticate). */
  authenticateEmbedToken?: (token: string) => Promise<Principal | null>;
  /** Resolves the token of a platform login cookie; set by the login module. */
  authenticateLoginToken?: (token: string) => Promise<Principal | null>;
  /** This process as a node of the cluster (its id and whether it takes requests); absent in tests that start none. */
  clusterNode?: { readonly nodeId: string; readonly status: "ready" | "draining" | "stopped" };
  /** Verifies an OIDC ID token of a workload against the configured issuers (OIDC token configs). */
  authenticateWorkloadToken?: (token: string) => Promise<Principal | null>;
  /** Regions this installation offers (SVC_REGIONS); the first is the default. */
  regions?: { id: string; name: string | null }[];
  /** What the access log writes (http/access-log.ts). */
  accessLog?: AccessLogOptions;
  /** The environment's AI settings (SVC_AI_*, validated at start-up by config.ts); absent: the built-in engine. */
  ai?: AiEnvSettings;
  /** The chat answers this node is writing (modules/chat/run-registry.ts); absent: `createApp` makes one for the app. */
  chatRuns?: ChatRunRegistry;
  /** The chat threads this node has seen (modules/chat/known-threads.ts); absent: `createApp` makes one for the app. */
  knownChatThreads?: KnownChatThreads;
  /** Outgoing mail for notifications (SVC_SMTP_URL, SVC_SMTP_FROM); absent: deliveries fail with a clear error. */
  smtp?: { url: string; from: string };
}
