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
  id: number;
  patch: SlugPatch;
  resolve(row: WorkbookRow | undefined): void;
  reject(err: unknown): void;
}

/** Per database, per `deploymentId:slug` being written: the patches waiting for that write to finish. */
const queues = new WeakMap<Db, Map<string, Waiting[]>>();

function queueOf(db: Db): Map<string, Waiting[]> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new Map()));
  return queue;
}

/** The key of a slug's writes. */
export const slugKey = (deploymentId: number, slug: string) => `${deploymentId}:${slug}`;

/** Whether a write of this slug is in flight from this process (the patches that arrive now wait for it). */
export const isWriting = (db: Db, key: string) => queueOf(db).has(key);

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

async function settleAlone(db: Db, slug: string, w: Waiting) {
  try {
    w.resolve(await updateHolder(db, w.id, slug, w.patch));
  } catch (err) {
    w.reject(err);
  }
}

async function drain(db: Db, slug: string, key: string, queue: Map<string, Waiting[]>) {
  for (let batch = queue.get(key)!.splice(0); batch.length; batch = queue.get(key)!.splice(0)) {
    // The slug's holder as each was decided (one id, unless the slug changed hands meanwhile).
    const byId = new Map<number, Waiting[]>();
    for (const w of batch) byId.set(w.id, [...(byId.get(w.id) ?? []), w]);
    for (const [id, group] of byId) {
      if (group.length === 1) {
        await settleAlone(db, slug, group[0]!);
        continue;
      }
      let row: WorkbookRow | undefined;
      try {
        row = await updateHolder(db, id, slug, mergePatches(group.map((w) => w.patch)));
      } catch {
        for (const w of group) await settleAlone(db, slug, w);
        continue;
      }
      for (const w of group) w.resolve(row);
    }
  }
  queue.delete(key);
}

/**
 * Runs one write of a slug, marking it in flight: the patches of the same slug that arrive
 * meanwhile (updateHolderMerging) wait, and go together in one UPDATE once it is done. When a
 * write of the slug is already in flight, it runs `write` alone.
 */
export async function writing<T>(db: Db, key: string, slug: string, write: () => Promise<T>): Promise<T> {
  const queue = queueOf(db);
  if (queue.has(key)) return write();
  queue.set(key, []);
  try {
    return await write();
  } finally {
    void drain(db, slug, key, queue);
  }
}

/**
 * `updateHolder`, merged with the other patches of the same slug that arrive while a write of it
 * is in flight (see above). Inside a transaction, or with a `folderId`, it is `updateHolder`
 * itself.
 */
export function updateHolderMerging(db: Db, key: string, id: number, slug: string, patch: SlugPatch): Promise<WorkbookRow | undefined> {
  if (patch.folderId || !runsOutsideTransaction(db)) return updateHolder(db, id, slug, patch);
  const busy = queueOf(db).get(key);
  if (busy) return new Promise((resolve, reject) => busy.push({ id, patch, resolve, reject }));
  return writing(db, key, slug, () => updateHolder(db, id, slug, patch));
}
