import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { sql } from "drizzle-orm";
import pg from "pg";
import type { Db } from "../db/connection";
import type { Logger } from "../logger";
import { silentLogger } from "../logger";

/** A node's id: readable (host and pid) and unique across restarts. */
export function newNodeId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`.slice(0, 120);
}

/** The Postgres channel every node listens on. */
export const INVALIDATION_CHANNEL = "svc_invalidation";

/**
 * What changed. The built-in kinds, and any other string a feature names for its own cache:
 * - `embed-session`: a session was revoked (key: the session's row id)
 * - `signing-key`: a signing key was rotated or retired (key: the key id)
 * - `login-session`: login sessions ended (key: the user id)
 * - `user`: a user was changed or deactivated (key: the user id)
 * - `dashboard`: a dashboard was published or changed (key: the workbook id)
 * - `data-model`: a deployment's data model changed, a merge into `main` say (key: the deployment id)
 * - `deployment`: a deployment's data source changed or it was deleted (key: the deployment id)
 * - `settings`: account settings changed (key: null)
 * - `job`: a job was enqueued (key: its kind); idle job runners poll at once
 */
export type InvalidationKind =
  "embed-session" | "signing-key" | "login-session" | "user" | "dashboard" | "data-model" | "deployment" | "settings" | "job" | (string & {});

/**
 * Called for every invalidation of the kind subscribed to, on every node (the publishing node
 * included). `key` null means "everything of this kind": sent after the listener reconnected,
 * when notifications may have been missed.
 */
export type InvalidationHandler = (key: string | null, event: { kind: InvalidationKind; origin: string }) => void | Promise<void>;

interface Envelope {
  k: string;
  v: string | null;
  o: string;
}

/** Keys and kinds travel in a NOTIFY payload (at most 8000 bytes); these bounds keep far below it. */
const MAX_KIND = 100;
const MAX_KEY = 1000;

/**
 * One invalidation bus per database handle: in-process subscribers, and across nodes through
 * Postgres LISTEN/NOTIFY once `connect` attached a listener (PGlite and single-node setups stay
 * in process, where every subscriber already lives).
 */
export function createInvalidationBus(opts: { db: Db; nodeId?: string; logger?: Logger }) {
  const nodeId = opts.nodeId ?? newNodeId();
  let logger = opts.logger ?? silentLogger;
  const handlers = new Map<string, Set<InvalidationHandler>>();
  let listener: pg.Client | null = null;
  let listenerUrl: string | null = null;
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let reconnectDelay = 250;
  let connectedOnce = false;
  let received = 0;

  async function call(handler: InvalidationHandler, kind: string, key: string | null, origin: string) {
    try {
      await handler(key, { kind, origin });
    } catch (err) {
      logger.warn("invalidation handler failed", { kind, error: err instanceof Error ? err.message : String(err) });
    }
  }

  async function deliver(kind: string, key: string | null, origin: string) {
    for (const handler of [...(handlers.get(kind) ?? []), ...(handlers.get("*") ?? [])]) await call(handler, kind, key, origin);
  }

  /** Every subscriber once, as "everything changed": after a reconnect, missed notifications are unknowable. */
  async function deliverResync() {
    for (const [kind, set] of handlers) for (const handler of [...set]) await call(handler, kind, null, nodeId);
  }

  function onNotification(msg: pg.Notification) {
    if (msg.channel !== INVALIDATION_CHANNEL || !msg.payload) return;
    let env: Envelope;
    try {
      env = JSON.parse(msg.payload) as Envelope;
    } catch {
      return;
    }
    if (typeof env.k !== "string" || typeof env.o !== "string" || env.o === nodeId) return;
    received += 1;
    void deliver(env.k, typeof env.v === "string" ? env.v : null, env.o);
  }

  function scheduleReconnect() {
    if (closed || reconnectTimer || !listenerUrl) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void listen(listenerUrl!).catch(() => scheduleReconnect());
    }, reconnectDelay);
    reconnectTimer.unref();
    reconnectDelay = Math.min(reconnectDelay * 2, 5000);
  }

  async function listen(url: string) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, keepAlive: true });
    client.on("error", (err) => {
      logger.warn("invalidation listener lost its connection", { error: err.message });
      if (listener === client) listener = null;
      client.end().catch(() => {});
      scheduleReconnect();
    });
    client.on("end", () => {
      if (listener === client) {
        listener = null;
        scheduleReconnect();
      }
    });
    client.on("notification", onNotification);
    await client.connect();
    await client.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    listener = client;
    reconnectDelay = 250;
    if (connectedOnce) {
      logger.info("invalidation listener reconnected; dropping every cache");
      await deliverResync();
    }
    connectedOnce = true;
  }

  return {
    nodeId,
    /** Listens for other nodes' invalidations on the Postgres server at `databaseUrl` (the same one the pool uses). */
    async connect(databaseUrl: string, log?: Logger) {
      if (log) logger = log;
      listenerUrl = databaseUrl;
      await listen(databaseUrl);
    },
    /** Whether another node's invalidations reach this one (a listener is attached and connected). */
    get crossNode() {
      return listener !== null;
    },
    /** How many invalidations from other nodes arrived (for tests and diagnostics). */
    get received() {
      return received;
    },
    /**
     * Announces a change, after it is committed: this node's subscribers run before it returns;
     * other nodes' run when the notification reaches them (milliseconds). Pass `tx` to send the
     * notification with a transaction, so other nodes hear of it only if it commits.
     */
    async publish(kind: InvalidationKind, key: string | number | null = null, publishOpts: { tx?: Pick<Db, "execute"> } = {}) {
      if (kind.length > MAX_KIND) throw new Error("invalidation kind too long");
      const k = key === null ? null : String(key).slice(0, MAX_KEY);
      if (listenerUrl) {
        const payload = JSON.stringify({ k: kind, v: k, o: nodeId } satisfies Envelope);
        try {
          await (publishOpts.tx ?? opts.db).execute(sql`select pg_notify(${INVALIDATION_CHANNEL}, ${payload})`);
        } catch (err) {
          // The change is committed already; a lost notification must not fail the request.
          // Other nodes' caches expire on their own, and a listener that reconnects drops them all.
          logger.error("invalidation could not be sent to other nodes", { kind, error: err instanceof Error ? err.message : String(err) });
        }
      }
      await deliver(kind, k, nodeId);
    },
    /** Runs `handler` for every invalidation of `kind` (or `"*"` for all); returns the unsubscribe. */
    subscribe(kind: InvalidationKind | "*", handler: InvalidationHandler): () => void {
      let set = handlers.get(kind);
      if (!set) handlers.set(kind, (set = new Set()));
      set.add(handler);
      return () => set.delete(handler);
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
    },
  };
}
export type InvalidationBus = ReturnType<typeof createInvalidationBus>;

const busesByDb = new WeakMap<Db, InvalidationBus>();

/** The bus of this database handle (one per process and database), created in-process on first use. */
export function invalidationBusFor(db: Db): InvalidationBus {
  let bus = busesByDb.get(db);
  if (!bus) {
    bus = createInvalidationBus({ db });
    busesByDb.set(db, bus);
  }
  return bus;
}

/**
 * Tells every node that something changed: call it after the change is committed. Subscribers
 * on this node have run when it resolves; other nodes' run within milliseconds.
 */
export function publishInvalidation(db: Db, kind: InvalidationKind, key: string | number | null = null, opts?: { tx?: Pick<Db, "execute"> }) {
  return invalidationBusFor(db).publish(kind, key, opts);
}

/** Runs `handler` on this node for every invalidation of `kind` from any node; returns the unsubscribe. */
export function onInvalidation(db: Db, kind: InvalidationKind | "*", handler: InvalidationHandler): () => void {
  return invalidationBusFor(db).subscribe(kind, handler);
}
