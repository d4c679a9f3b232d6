import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { dataModelFiles, modelBranches, modelCommits, modelFileVersions, type ModelBuildProblem, type ModelTree } from "../../db/schema";
import { pgError } from "../../db/pg-error";
import { conflict, notFound } from "../../domain/errors";
import { DataModelError } from "../../semantic";
import { compileModel } from "./compiled-models";
import { sha256Of } from "./merge";

/** The default branch: what production queries use. */
export const DEFAULT_BRANCH = "main";

export type BranchRow = typeof modelBranches.$inferSelect;
export type CommitRow = typeof modelCommits.$inferSelect;

/** Stores file versions by their sha256 (a version already stored is kept as is). */
export async function putVersions(db: Db, deploymentId: number, contents: Iterable<string>) {
  const rows = new Map<string, { deploymentId: number; sha256: string; content: string; size: number }>();
  for (const content of contents) {
    const sha = sha256Of(content);
    rows.set(sha, { deploymentId, sha256: sha, content, size: Buffer.byteLength(content) });
  }
  const list = [...rows.values()];
  for (let i = 0; i < list.length; i += 500)
    await db
      .insert(modelFileVersions)
      .values(list.slice(i, i + 500))
      .onConflictDoNothing();
  return [...rows.keys()];
}

/** The contents of file versions, by sha256. */
export async function readVersions(db: Db, deploymentId: number, shas: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(shas)];
  const out = new Map<string, string>();
  for (let i = 0; i < wanted.length; i += 1000) {
    const rows = await db
      .select({ sha: modelFileVersions.sha256, content: modelFileVersions.content })
      .from(modelFileVersions)
      .where(and(eq(modelFileVersions.deploymentId, deploymentId), inArray(modelFileVersions.sha256, wanted.slice(i, i + 1000))));
    for (const r of rows) out.set(r.sha, r.content);
  }
  return out;
}

/** A tree's files with their contents, sorted by path. */
export async function filesOf(db: Db, deploymentId: number, tree: ModelTree) {
  const contents = await readVersions(db, deploymentId, Object.values(tree));
  return Object.keys(tree)
    .sort()
    .map((path) => ({ path, content: contents.get(tree[path]!) ?? "" }));
}

/** Compiles a tree's files as one model; the problems with file and line, none when valid. */
export function problemsOf(files: { path: string; content: string }[]): ModelBuildProblem[] {
  try {
    compileModel(files);
    return [];
  } catch (e) {
    if (!(e instanceof DataModelError)) throw e;
    return e.problems.map((p) => ({
      path: p.file,
      ...(p.line ? { line: p.line } : {}),
      message: p.path.length ? `${p.path.join(".")}: ${p.message}` : p.message,
    }));
  }
}

export const sameTree = (a: ModelTree, b: ModelTree) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};

export async function findBranch(db: Db, deploymentId: number, name: string): Promise<BranchRow | null> {
  const [row] = await db
    .select()
    .from(modelBranches)
    .where(and(eq(modelBranches.deploymentId, deploymentId), eq(modelBranches.name, name)));
  return row ?? null;
}

export async function getBranch(db: Db, deploymentId: number, name: string): Promise<BranchRow> {
  const row = await findBranch(db, deploymentId, name);
  if (!row) throw notFound(`Branch "${name}"`);
  return row;
}

export async function getCommit(db: Db, id: number): Promise<CommitRow> {
  const [row] = await db.select().from(modelCommits).where(eq(modelCommits.id, id));
  if (!row) throw notFound("Commit");
  return row;
}

/**
 * Makes sure the deployment's model is versioned: a deployment created before (or by the demo
 * seed) has its files on `main` in `data_model_files` only; they become the first commit.
 * Safe against a concurrent first call on another node (the unique branch name decides).
 */
export async function ensureDefaultBranch(db: Db, deploymentId: number): Promise<BranchRow> {
  const existing = await findBranch(db, deploymentId, DEFAULT_BRANCH);
  if (existing) return existing;
  try {
    await db.transaction(async (tx) => {
      const files = await tx
        .select({ path: dataModelFiles.path, content: dataModelFiles.content })
        .from(dataModelFiles)
        .where(and(eq(dataModelFiles.deploymentId, deploymentId), eq(dataModelFiles.branch, DEFAULT_BRANCH)));
      await putVersions(
        tx,
        deploymentId,
        files.map((f) => f.content),
      );
      const tree: ModelTree = Object.fromEntries(files.map((f) => [f.path, sha256Of(f.content)]));
      const [commit] = await tx
        .insert(modelCommits)
        .values({ deploymentId, branch: DEFAULT_BRANCH, tree, authorName: "svc", message: "Initial model" })
        .returning();
      await tx.insert(modelBranches).values({ deploymentId, name: DEFAULT_BRANCH, headCommitId: commit!.id, workTree: tree, buildStatus: "ready" });
    });
  } catch (e) {
    const { code } = pgError(e);
    // 23505: another node versioned it first; 23503: the deployment does not exist.
    if (code === "23503") throw notFound("Deployment");
    if (code !== "23505") throw e;
  }
  return getBranch(db, deploymentId, DEFAULT_BRANCH);
}

/** What a write changes on a branch. */
export interface BranchUpdate {
  workTree?: ModelTree;
  headCommitId?: number;
  buildStatus?: "building" | "ready" | "failed";
  buildErrors?: ModelBuildProblem[];
}

/**
 * Writes a branch if nobody wrote it since `branch` was read (compare-and-swap on its version);
 * the loser of a race gets 409 `branch_head_changed` and retries. Returns the new version.
 */
export async function casBranch(db: Db, branch: BranchRow, update: BranchUpdate): Promise<number> {
  const set: Partial<typeof modelBranches.$inferInsert> = { version: branch.version + 1 };
  if (update.workTree) set.workTree = update.workTree;
  if (update.headCommitId !== undefined) set.headCommitId = update.headCommitId;
  if (update.buildStatus) {
    set.buildStatus = update.buildStatus;
    set.buildErrors = update.buildErrors ?? [];
    set.builtAt = new Date();
  }
  const rows = await db
    .update(modelBranches)
    .set(set)
    .where(and(eq(modelBranches.id, branch.id), eq(modelBranches.version, branch.version)))
    .returning({ version: modelBranches.version });
  if (!rows.length)
    throw conflict(`Branch "${branch.name}" changed while this request was applied; read it again and retry`, "branch_head_changed", { branch: branch.name });
  return rows[0]!.version;
}

/** Keeps `data_model_files` (branch `main`) equal to the head of `main`, for every reader of the current model. */
export async function mirrorDefaultBranch(db: Db, deploymentId: number, tree: ModelTree) {
  const files = await filesOf(db, deploymentId, tree);
  await db.delete(dataModelFiles).where(and(eq(dataModelFiles.deploymentId, deploymentId), eq(dataModelFiles.branch, DEFAULT_BRANCH)));
  for (let i = 0; i < files.length; i += 500)
    await db.insert(dataModelFiles).values(files.slice(i, i + 500).map((f) => ({ deploymentId, branch: DEFAULT_BRANCH, path: f.path, content: f.content })));
}

/** Ids of a commit and all its ancestors. */
export async function ancestorsOf(db: Db, commitId: number): Promise<Set<number>> {
  const result = await db.execute<{ id: number }>(sql`
    WITH RECURSIVE anc(id) AS (
      SELECT ${commitId}::int
      UNION
      SELECT p.pid FROM anc JOIN ${modelCommits} c ON c.id = anc.id
        CROSS JOIN LATERAL (VALUES (c.parent_id), (c.merge_parent_id)) AS p(pid)
      WHERE p.pid IS NOT NULL
    ) SELECT id FROM anc`);
  const rows = (Array.isArray(result) ? result : (result as { rows: { id: number }[] }).rows) as { id: number }[];
  return new Set(rows.map((r) => Number(r.id)));
}

/** The best common ancestor of two commits (the latest one both descend from), or null. */
export async function mergeBaseOf(db: Db, a: number, b: number): Promise<number | null> {
  const [ancA, ancB] = await Promise.all([ancestorsOf(db, a), ancestorsOf(db, b)]);
  let best: number | null = null;
  for (const id of ancA) if (ancB.has(id) && (best === null || id > best)) best = id;
  return best;
}
