/**
 * Threads this node has seen, by id: a thread's deployment and owner never change, so asking
 * in a known thread needs no read. A deletion is announced on the invalidation bus
 * (`chat-thread`), and every node forgets the thread; were a notice missed, the answer's write
 * finds no thread and stores nothing. One per app, like the run registry.
 */
import type { Db } from "../../db/connection";
import { onInvalidation } from "../../cluster/invalidation-bus";

/** What never changes about a thread. */
export interface KnownThread {
  deploymentId: number;
  ownerKey: string;
}

const MAX_KNOWN_THREADS = 10_000;

export type KnownChatThreads = ReturnType<typeof createKnownChatThreads>;

export function createKnownChatThreads(db: Db) {
  const known = new Map<string, KnownThread>();
  let unsubscribe: (() => void) | null = null;
  // The bus of the database is subscribed to on first use, as a node learns its first thread.
  const listen = () => {
    unsubscribe ??= onInvalidation(db, "chat-thread", (key) => {
      if (key === null) known.clear();
      else known.delete(key);
    });
  };
  return {
    get(threadId: string): KnownThread | undefined {
      listen();
      return known.get(threadId);
    },
    set(threadId: string, thread: KnownThread) {
      listen();
      if (known.size >= MAX_KNOWN_THREADS) known.delete(known.keys().next().value!);
      known.set(threadId, thread);
    },
  };
}
