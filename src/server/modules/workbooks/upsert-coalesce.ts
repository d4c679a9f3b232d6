/**
 * Writers of one hot workbook, merged into one UPDATE. Many callers that upsert the same slug at
 * once (each decided and access-checked on its own) would otherwise queue on the row's lock, one
 * commit after the other, so the last of n waits n commits. Here, while one UPDATE of a workbook
 * is in flight from this process, the patches that arrive for it wait and then go together in
 * one statement: their `meta` objects merged in arrival order (as `meta || a || b` would), the
 * last name sent winning. Each caller gets the row that statement wrote, which holds its keys
 * and those of the writers merged with it. A patch that moves the workbook (`folderId`, which
 * can fail on its own) is never merged; when a merged statement fails, each of its patches is
 * applied alone, so every caller gets its own outcome.
 */
import type { Db } from "../../db/connection";
import { runsOutsideTransaction } from "../../db/prepared";
import { updateHolder, type SlugPatch, type WorkbookRow } from "./upsert-store";

interface Waiting {
  patch: SlugPatch;
  resolve(row: WorkbookRow | undefined): void;
  reject(err: unknown): void;
}

/** Per database, per `id:slug`: the patches waiting for the UPDATE in flight to finish. */
const queues = new WeakMap<Db, Map<string, Waiting[]>>();

/** The patches as one: meta objects merged in order at the top level (jsonb `||`), the last name sent. */
export function mergePatches(patches: SlugPatch[]): SlugPatch {
  const keys = new Map<string, string>();
  let name: string | null | undefined;
  for (const p of patches) {
    if (p.name !== undefined && p.name !== null) name = p.name;
    if (p.meta === null) continue;
    // Entries, not an object: a key such as `__proto__` stays an ordinary key.
    for (const [k, v] of Object.entries(JSON.parse(p.meta) as Record<string, unknown>)) {
      keys.delete(k);
      keys.set(k, JSON.stringify(v));
    }
  }
  const meta = patches.some((p) => p.meta !== null) ? `{${[...keys].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}` : null;
  return { name, meta };
}

async function settleAlone(db: Db, id: number, slug: string, w: Waiting) {
  try {
    w.resolve(await updateHolder(db, id, slug, w.patch));
  } catch (err) {
    w.reject(err);
  }
}

async function drain(db: Db, id: number, slug: string, key: string, queue: Map<string, Waiting[]>) {
  for (let batch = queue.get(key)!.splice(0); batch.length; batch = queue.get(key)!.splice(0)) {
    if (batch.length === 1) {
      await settleAlone(db, id, slug, batch[0]!);
      continue;
    }
    let row: WorkbookRow | undefined;
    try {
      row = await updateHolder(db, id, slug, mergePatches(batch.map((w) => w.patch)));
    } catch {
      for (const w of batch) await settleAlone(db, id, slug, w);
      continue;
    }
    for (const w of batch) w.resolve(row);
  }
  queue.delete(key);
}

/**
 * `updateHolder`, merged with the other patches of the same workbook that arrive while one of
 * its UPDATEs is in flight (see above). Inside a transaction, or with a `folderId`, it is
 * `updateHolder` itself.
 */
export function updateHolderMerging(db: Db, id: number, slug: string, patch: SlugPatch): Promise<WorkbookRow | undefined> {
  if (patch.folderId || !runsOutsideTransaction(db)) return updateHolder(db, id, slug, patch);
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new Map()));
  const key = `${id}:${slug}`;
  const busy = queue.get(key);
  if (busy) return new Promise((resolve, reject) => busy.push({ patch, resolve, reject }));
  const q = queue;
  q.set(key, []);
  return updateHolder(db, id, slug, patch).finally(() => void drain(db, id, slug, key, q));
}
