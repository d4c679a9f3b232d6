import { createHash, randomUUID } from "node:crypto";
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { modelBranches, modelCommits, modelDevModes, modelUploads, type ModelBuildProblem, type ModelTree } from "../../db/schema";
import { devModeCache, invalidateDevModes } from "../../domain/request-caches";
import { pgError } from "../../db/pg-error";
import { hasRole, type UserPrincipal } from "../../domain/actor";
import { badRequest, conflict, DomainError, forbidden, notFound } from "../../domain/errors";
import type { Logger } from "../../logger";
import type { QueryEngineRegistry } from "../query/engines";
import { DataModelError } from "../../semantic";
import { compileModel } from "./compiled-models";
import { MODEL_FILE_MAX_BYTES, MODEL_MAX_FILES, UPLOAD_MAX_BYTES } from "../../../schema/data-model-build";
import { textProblem } from "../../../schema/common";
import { mergeTrees, sha256Of } from "./merge";
import {
  casBranch,
  DEFAULT_BRANCH,
  ensureDefaultBranch,
  filesOf,
  findBranch,
  getBranch,
  getCommit,
  mergeBaseOf,
  ancestorsOf,
  mirrorDefaultBranch,
  problemsOf,
  putVersions,
  readVersions,
  sameTree,
  type BranchRow,
  type CommitRow,
} from "./store";

/** What the data-model service needs from the platform. */
export interface ModelDeps {
  db: Db;
  logger: Logger;
  queryEngines: Pick<QueryEngineRegistry, "invalidateDeploymentModel" | "getWithModel">;
  /** Pushes `main` to the connected git remote, when there is one (set by the git module). */
  pushToRemote?: (
    deploymentId: number,
    tree: ModelTree,
    files: { path: string; content: string }[],
    message: string,
    author: UserPrincipal,
    history?: ReplayCommit[],
  ) => Promise<boolean>;
}

/** A platform commit as a git remote receives it (git.ts replays it as one git commit). */
export interface ReplayCommit {
  message: string;
  authorName: string;
  at: Date;
  changes: { path: string; content: string | null }[];
}

const devBranchName = (deploymentId: number, userId: number, base: string) =>
  `dev-${userId}-${createHash("sha256").update(`${deploymentId}:${userId}:${base}`).digest("hex").slice(0, 8)}`;

export function branchView(b: BranchRow, headTree?: ModelTree) {
  return {
    name: b.name,
    headCommitId: b.headCommitId,
    parentBranch: b.parentBranch,
    ownerUserId: b.ownerUserId,
    isDefault: b.name === DEFAULT_BRANCH,
    hasUncommittedChanges: headTree ? !sameTree(headTree, b.workTree) : false,
    version: b.version,
    buildStatus: b.buildStatus,
    createdAt: b.createdAt.toISOString(),
  };
}

export function commitView(c: CommitRow) {
  return {
    id: c.id,
    branch: c.branch,
    parentId: c.parentId,
    mergeParentId: c.mergeParentId,
    authorName: c.authorName,
    message: c.message,
    createdAt: c.createdAt.toISOString(),
  };
}

/**
 * The dev-mode branch of a user on a deployment, or null. Every query of a developer or admin
 * asks, so the answer is kept per node (domain/request-caches.ts) and dropped on every node by
 * each change to dev modes.
 */
export async function devBranchOf(db: Db, deploymentId: number, userId: number): Promise<string | null> {
  const key = `${deploymentId}:${userId}`;
  const cached = devModeCache.get(db, key);
  if (cached !== undefined) return cached;
  const readAt = devModeCache.generation();
  const [row] = await db
    .select({ branch: modelDevModes.branch })
    .from(modelDevModes)
    .where(and(eq(modelDevModes.deploymentId, deploymentId), eq(modelDevModes.userId, userId)));
  const branch = row?.branch ?? null;
  devModeCache.set(db, key, branch, readAt);
  return branch;
}

/** The branch a read is about: the one named, else the caller's dev branch in dev mode, else `main`. */
export async function branchForRead(db: Db, deploymentId: number, actor: UserPrincipal, branch?: string) {
  await ensureDefaultBranch(db, deploymentId);
  const name = branch ?? (await devBranchOf(db, deploymentId, actor.userId)) ?? DEFAULT_BRANCH;
  return getBranch(db, deploymentId, name);
}

/** The caller's own dev branch, the only place file writes go (409 `not_in_dev_mode` otherwise). */
async function ownDevBranch(db: Db, deploymentId: number, actor: UserPrincipal): Promise<BranchRow> {
  await ensureDefaultBranch(db, deploymentId);
  const name = await devBranchOf(db, deploymentId, actor.userId);
  const branch = name ? await findBranch(db, deploymentId, name) : null;
  if (!branch || branch.ownerUserId !== actor.userId)
    throw conflict("Files can be written only on your own dev-mode branch: enter dev mode first (POST …/dev-mode)", "not_in_dev_mode");
  return branch;
}

/** Enters dev mode: the caller's personal branch forked from `baseBranch` (the same one again when it still exists). */
export async function enterDevMode(db: Db, deploymentId: number, actor: UserPrincipal, baseBranch = DEFAULT_BRANCH) {
  await ensureDefaultBranch(db, deploymentId);
  const base = await getBranch(db, deploymentId, baseBranch);
  const name = devBranchName(deploymentId, actor.userId, base.name);
  let branch = await findBranch(db, deploymentId, name);
  if (!branch) {
    const head = await getCommit(db, base.headCommitId);
    await db
      .insert(modelBranches)
      .values({
        deploymentId,
        name,
        headCommitId: head.id,
        workTree: head.tree,
        parentBranch: base.name,
        ownerUserId: actor.userId,
        buildStatus: base.buildStatus,
        buildErrors: base.buildErrors,
      })
      .onConflictDoNothing();
    branch = await getBranch(db, deploymentId, name);
  }
  await db
    .insert(modelDevModes)
    .values({ deploymentId, userId: actor.userId, branch: name })
    .onConflictDoUpdate({ target: [modelDevModes.deploymentId, modelDevModes.userId], set: { branch: name } });
  invalidateDevModes();
  return branchView(branch, (await getCommit(db, branch.headCommitId)).tree);
}

/** Leaves dev mode; the branch stays. */
export async function leaveDevMode(db: Db, deploymentId: number, actor: UserPrincipal) {
  await db.delete(modelDevModes).where(and(eq(modelDevModes.deploymentId, deploymentId), eq(modelDevModes.userId, actor.userId)));
  invalidateDevModes();
}

export async function listBranches(db: Db, deploymentId: number) {
  await ensureDefaultBranch(db, deploymentId);
  const rows = await db.select().from(modelBranches).where(eq(modelBranches.deploymentId, deploymentId)).orderBy(asc(modelBranches.id));
  const heads = await db
    .select({ id: modelCommits.id, tree: modelCommits.tree })
    .from(modelCommits)
    .where(sql`${modelCommits.id} IN (SELECT head_commit_id FROM model_branches WHERE deployment_id = ${deploymentId})`);
  const treeOf = new Map(heads.map((h) => [h.id, h.tree]));
  return rows.map((r) => branchView(r, treeOf.get(r.headCommitId)));
}

/** Creates a shared branch from another branch's head. Names starting with `dev-` are kept for dev mode. */
export async function createBranch(db: Db, deploymentId: number, input: { name: string; from: string }) {
  if (input.name.startsWith("dev-"))
    throw badRequest('Branch names starting with "dev-" are kept for dev mode', [{ path: ["name"], message: "reserved prefix" }]);
  await ensureDefaultBranch(db, deploymentId);
  const from = await getBranch(db, deploymentId, input.from);
  const head = await getCommit(db, from.headCommitId);
  try {
    const [row] = await db
      .insert(modelBranches)
      .values({
        deploymentId,
        name: input.name,
        headCommitId: head.id,
        workTree: head.tree,
        parentBranch: from.name,
        buildStatus: from.buildStatus,
        buildErrors: from.buildErrors,
      })
      .returning();
    return branchView(row!, head.tree);
  } catch (e) {
    if (pgError(e).code === "23505") throw conflict(`Branch "${input.name}" already exists`);
    throw e;
  }
}

/** Files of a branch with their hashes (and the content of one when `path` is given). */
export async function listFiles(db: Db, deploymentId: number, actor: UserPrincipal, opts: { branch?: string; path?: string }) {
  const branch = await branchForRead(db, deploymentId, actor, opts.branch);
  const tree = branch.workTree;
  if (opts.path !== undefined) {
    const sha = tree[opts.path];
    if (!sha) throw notFound(`File "${opts.path}"`);
    const content = (await readVersions(db, deploymentId, [sha])).get(sha) ?? "";
    return { branch: branch.name, commit: branch.headCommitId, files: [{ path: opts.path, sha256: sha, size: Buffer.byteLength(content), content }] };
  }
  const sizes = await db.execute<{ sha256: string; size: number }>(
    sql`SELECT sha256, size FROM model_file_versions WHERE deployment_id = ${deploymentId} AND sha256 IN (SELECT value FROM jsonb_each_text(${JSON.stringify(tree)}::jsonb))`,
  );
  const rows = (Array.isArray(sizes) ? sizes : (sizes as { rows: { sha256: string; size: number }[] }).rows) as { sha256: string; size: number }[];
  const sizeOf = new Map(rows.map((r) => [r.sha256, Number(r.size)]));
  return {
    branch: branch.name,
    commit: branch.headCommitId,
    files: Object.keys(tree)
      .sort()
      .map((path) => ({ path, sha256: tree[path]!, size: sizeOf.get(tree[path]!) ?? 0 })),
  };
}

export async function fileHashes(db: Db, deploymentId: number, actor: UserPrincipal, branch?: string) {
  const b = await branchForRead(db, deploymentId, actor, branch);
  return Object.fromEntries(
    Object.keys(b.workTree)
      .sort()
      .map((p) => [p, b.workTree[p]!]),
  );
}

function checkContent(path: string, content: string) {
  if (Buffer.byteLength(content) > MODEL_FILE_MAX_BYTES)
    throw new DomainError("payload_too_large", `"${path}" is larger than ${MODEL_FILE_MAX_BYTES} bytes; split the model into smaller files`);
}

function checkTreeSize(tree: ModelTree) {
  if (Object.keys(tree).length > MODEL_MAX_FILES) throw new DomainError("payload_too_large", `A model holds at most ${MODEL_MAX_FILES} files`);
}

/** Compiles a tree and reports it the way every write answers. */
async function compileTree(db: Db, deploymentId: number, tree: ModelTree) {
  const problems = problemsOf(await filesOf(db, deploymentId, tree));
  return { valid: problems.length === 0, errors: problems };
}

/** Applies a change to the caller's dev branch work tree, compiles the branch and records the result (invalid files are kept). */
async function writeWorkTree(db: Db, deploymentId: number, actor: UserPrincipal, change: (tree: ModelTree) => Promise<ModelTree> | ModelTree) {
  const branch = await ownDevBranch(db, deploymentId, actor);
  const tree = await change({ ...branch.workTree });
  checkTreeSize(tree);
  const build = await compileTree(db, deploymentId, tree);
  const version = await casBranch(db, branch, { workTree: tree, buildStatus: build.valid ? "ready" : "failed", buildErrors: build.errors });
  return { branch: branch.name, ...build, version };
}

export async function writeFile(db: Db, deploymentId: number, actor: UserPrincipal, input: { path: string; content: string }) {
  checkContent(input.path, input.content);
  return writeWorkTree(db, deploymentId, actor, async (tree) => {
    const [sha] = await putVersions(db, deploymentId, [input.content]);
    tree[input.path] = sha!;
    return tree;
  });
}

export async function deleteFile(db: Db, deploymentId: number, actor: UserPrincipal, path: string) {
  return writeWorkTree(db, deploymentId, actor, (tree) => {
    if (!tree[path]) throw notFound(`File "${path}"`);
    delete tree[path];
    return tree;
  });
}

export async function renameFile(db: Db, deploymentId: number, actor: UserPrincipal, input: { from: string; to: string }) {
  return writeWorkTree(db, deploymentId, actor, (tree) => {
    const sha = tree[input.from];
    if (!sha) throw notFound(`File "${input.from}"`);
    if (input.to !== input.from && tree[input.to]) throw conflict(`"${input.to}" already exists`);
    delete tree[input.from];
    tree[input.to] = sha;
    return tree;
  });
}

const authorName = (actor: UserPrincipal) => actor.email || `user ${actor.userId}`;

/** Records the caller's dev branch's changes as a commit (null when there is nothing to commit). */
export async function commit(db: Db, deploymentId: number, actor: UserPrincipal, message: string) {
  const branch = await ownDevBranch(db, deploymentId, actor);
  const head = await getCommit(db, branch.headCommitId);
  const build = await compileTree(db, deploymentId, branch.workTree);
  if (sameTree(head.tree, branch.workTree)) return { branch: branch.name, commit: null, ...build };
  const row = await db.transaction(async (tx) => {
    const [c] = await tx
      .insert(modelCommits)
      .values({
        deploymentId,
        branch: branch.name,
        parentId: head.id,
        tree: branch.workTree,
        authorUserId: actor.userId,
        authorName: authorName(actor),
        message,
      })
      .returning();
    await casBranch(tx, branch, { headCommitId: c!.id, buildStatus: build.valid ? "ready" : "failed", buildErrors: build.errors });
    return c!;
  });
  return { branch: branch.name, commit: commitView(row), ...build };
}

/** A merge of `from`'s head into `into`; what it would write, computed before anything is written. */
async function planMerge(db: Db, deploymentId: number, from: BranchRow, into: BranchRow) {
  const intoHead = await getCommit(db, into.headCommitId);
  const dirty = !sameTree(intoHead.tree, into.workTree);
  if ((await ancestorsOf(db, into.headCommitId)).has(from.headCommitId)) return { kind: "up_to_date" as const, intoHead };
  const fromHead = await getCommit(db, from.headCommitId);
  const baseId = await mergeBaseOf(db, into.headCommitId, from.headCommitId);
  if (baseId === into.headCommitId && !dirty)
    return { kind: "fast_forward" as const, intoHead, fromHead, tree: fromHead.tree, created: new Map<string, string>() };
  const baseTree = baseId === null ? {} : (await getCommit(db, baseId)).tree;
  const ours = into.workTree;
  const contents = await readVersions(db, deploymentId, [...Object.values(baseTree), ...Object.values(ours), ...Object.values(fromHead.tree)]);
  const merged = mergeTrees(baseTree, ours, fromHead.tree, (sha) => contents.get(sha) ?? "");
  if (!merged.ok)
    throw conflict(
      `Merging "${from.name}" into "${into.name}" conflicts in ${merged.conflicts.map((c) => c.path).join(", ")}; nothing was changed`,
      "merge_conflict",
      {
        files: merged.conflicts,
      },
    );
  return { kind: "merge" as const, intoHead, fromHead, tree: merged.tree, created: merged.created };
}

/**
 * Merges `from` into `into`. Into the default branch only a valid model goes (400
 * `data_model_invalid` naming the problems, nothing changed); production engines reload and
 * a connected git remote receives the result.
 */
export async function mergeBranches(
  deps: ModelDeps,
  deploymentId: number,
  actor: UserPrincipal,
  input: { from: string; into: string; removeBranchAfterMerge?: boolean; message?: string },
) {
  const { db } = deps;
  await ensureDefaultBranch(db, deploymentId);
  if (input.from === input.into) throw badRequest("A branch cannot be merged into itself", [{ path: ["from"], message: "same as into" }]);
  const from = await getBranch(db, deploymentId, input.from);
  const into = await getBranch(db, deploymentId, input.into);
  if (into.ownerUserId !== null && into.ownerUserId !== actor.userId) throw forbidden(`"${into.name}" is another user's dev-mode branch`);
  const toDefault = into.name === DEFAULT_BRANCH;
  const plan = await planMerge(db, deploymentId, from, into);
  let removed = false;
  if (plan.kind === "up_to_date") {
    if (input.removeBranchAfterMerge && toDefault) removed = await removeBranch(db, from);
    return { into: into.name, commit: null, fastForward: false, ...(toDefault ? { branchRemoved: removed, pushed: false } : {}) };
  }
  await putVersions(db, deploymentId, plan.created.values());
  const files = await filesOf(db, deploymentId, plan.tree);
  const problems = problemsOf(files);
  if (toDefault && problems.length) throw invalidModel(problems, `"${from.name}" does not compile; only a valid model is merged into "${DEFAULT_BRANCH}"`);
  const message = input.message ?? `Merge branch "${from.name}" into "${into.name}"`;
  const pushed =
    toDefault && deps.pushToRemote
      ? await deps.pushToRemote(deploymentId, plan.tree, files, message, actor, await historyOf(db, deploymentId, plan.intoHead.id, plan.fromHead.id))
      : false;
  const build = { buildStatus: problems.length ? ("failed" as const) : ("ready" as const), buildErrors: problems };
  const newCommit = await db.transaction(async (tx) => {
    let headId = plan.fromHead.id;
    let c: CommitRow | null = null;
    if (plan.kind === "merge") {
      [c] = (await tx
        .insert(modelCommits)
        .values({
          deploymentId,
          branch: into.name,
          parentId: plan.intoHead.id,
          mergeParentId: plan.fromHead.id,
          tree: plan.tree,
          authorUserId: actor.userId,
          authorName: authorName(actor),
          message,
        })
        .returning()) as [CommitRow];
      headId = c.id;
    }
    await casBranch(tx, into, { headCommitId: headId, workTree: plan.tree, ...build });
    if (toDefault) await mirrorDefaultBranch(tx, deploymentId, plan.tree);
    if (input.removeBranchAfterMerge && toDefault) removed = await removeBranch(tx, from);
    return c ?? plan.fromHead;
  });
  // Again once committed: a dev-mode read between the removal and the commit saw the old row.
  if (removed) invalidateDevModes();
  if (toDefault) {
    await deps.queryEngines.invalidateDeploymentModel(deploymentId);
    deps.logger.info("data model merged to default", { deploymentId, from: from.name, commit: newCommit.id, by: actor.userId });
  }
  return {
    into: into.name,
    commit: commitView(newCommit),
    fastForward: plan.kind === "fast_forward",
    ...(toDefault ? { branchRemoved: removed, pushed } : {}),
  };
}

/**
 * The commits `fromHead` has and `intoHead` has not, oldest first, each with the files it changed
 * against its first parent: what a merge brings in, for the git remote to receive commit by commit.
 */
export async function historyOf(db: Db, deploymentId: number, intoHeadId: number, fromHeadId: number): Promise<ReplayCommit[]> {
  const [fromAncestors, intoAncestors] = await Promise.all([ancestorsOf(db, fromHeadId), ancestorsOf(db, intoHeadId)]);
  const ids = [...fromAncestors].filter((id) => !intoAncestors.has(id));
  if (!ids.length) return [];
  const rows = await db.select().from(modelCommits).where(inArray(modelCommits.id, ids)).orderBy(asc(modelCommits.id));
  const parentIds = [...new Set(rows.map((r) => r.parentId).filter((id): id is number => id !== null))];
  const parents = parentIds.length
    ? await db.select({ id: modelCommits.id, tree: modelCommits.tree }).from(modelCommits).where(inArray(modelCommits.id, parentIds))
    : [];
  const treeOf = new Map(parents.map((p) => [p.id, p.tree]));
  const changed = rows.map((r) => {
    const before = (r.parentId !== null ? treeOf.get(r.parentId) : undefined) ?? {};
    return { row: r, paths: [...new Set([...Object.keys(before), ...Object.keys(r.tree)])].filter((p) => before[p] !== r.tree[p]).sort() };
  });
  const contents = await readVersions(
    db,
    deploymentId,
    changed.flatMap((c) => c.paths.map((p) => c.row.tree[p]).filter((sha): sha is string => !!sha)),
  );
  return changed.map(({ row, paths }) => ({
    message: row.message,
    authorName: row.authorName,
    at: row.createdAt,
    changes: paths.map((p) => ({ path: p, content: row.tree[p] ? (contents.get(row.tree[p]!) ?? "") : null })),
  }));
}

async function removeBranch(db: Db, branch: BranchRow) {
  if (branch.name === DEFAULT_BRANCH) return false;
  await db.delete(modelDevModes).where(and(eq(modelDevModes.deploymentId, branch.deploymentId), eq(modelDevModes.branch, branch.name)));
  invalidateDevModes();
  const rows = await db.delete(modelBranches).where(eq(modelBranches.id, branch.id)).returning({ id: modelBranches.id });
  return rows.length > 0;
}

function invalidModel(problems: ModelBuildProblem[], message: string) {
  return new DomainError(
    "data_model_invalid",
    `${message}: ${problems
      .slice(0, 3)
      .map((p) => `${p.path}${p.line ? `:${p.line}` : ""} ${p.message}`)
      .join("; ")}`,
    { details: problems },
  );
}

/** Brings the parent's (or `from`'s) new commits into the caller's dev branch by three-way merge. */
export async function pull(deps: ModelDeps, deploymentId: number, actor: UserPrincipal, from?: string, refresh?: (deploymentId: number) => Promise<void>) {
  const branch = await ownDevBranch(deps.db, deploymentId, actor);
  const source = from ?? branch.parentBranch ?? DEFAULT_BRANCH;
  if (source === DEFAULT_BRANCH && refresh) await refresh(deploymentId);
  return mergeBranches(deps, deploymentId, actor, { from: source, into: branch.name, message: `Pull "${source}" into "${branch.name}"` });
}

export async function buildStatus(db: Db, deploymentId: number, actor: UserPrincipal, branch?: string) {
  const b = await branchForRead(db, deploymentId, actor, branch);
  return { branch: b.name, commit: b.headCommitId, status: b.buildStatus, errors: b.buildErrors, builtAt: b.builtAt.toISOString() };
}

// ---------------------------------------------------------------------------------------------
// Uploads: start / file / finish, one atomic commit.
// ---------------------------------------------------------------------------------------------

/** Uploads not finished within this time are dropped (their file versions stay; they are content-addressed). */
const UPLOAD_TTL_MS = 24 * 3600_000;

async function uploadTarget(db: Db, deploymentId: number, actor: UserPrincipal, branchName: string) {
  await ensureDefaultBranch(db, deploymentId);
  const branch = await getBranch(db, deploymentId, branchName);
  if (branch.ownerUserId !== null && branch.ownerUserId !== actor.userId) throw forbidden(`"${branch.name}" is another user's dev-mode branch`);
  return branch;
}

export async function startUpload(db: Db, deploymentId: number, actor: UserPrincipal, input: { branch: string; mode: "replace" | "merge" }) {
  await uploadTarget(db, deploymentId, actor, input.branch);
  await db.delete(modelUploads).where(lt(modelUploads.createdAt, new Date(Date.now() - UPLOAD_TTL_MS)));
  const id = randomUUID();
  await db.insert(modelUploads).values({ id, deploymentId, branch: input.branch, mode: input.mode, userId: actor.userId });
  return { uploadId: id };
}

async function getUpload(db: Db, deploymentId: number, actor: UserPrincipal, uploadId: string) {
  const [row] = await db
    .select()
    .from(modelUploads)
    .where(and(eq(modelUploads.id, uploadId), eq(modelUploads.deploymentId, deploymentId), eq(modelUploads.userId, actor.userId)));
  if (!row) throw notFound("Upload");
  return row;
}

export async function uploadFile(
  db: Db,
  deploymentId: number,
  actor: UserPrincipal,
  input: { uploadId: string; path: string; content: string; sha256: string },
) {
  await getUpload(db, deploymentId, actor, input.uploadId);
  const bytes = Buffer.from(input.content, "base64");
  if (sha256Of(bytes) !== input.sha256)
    throw badRequest("sha256 does not match the content received", [{ path: ["sha256"], message: "does not match the decoded content" }]);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("A model file must be UTF-8 text", [{ path: ["content"], message: "not UTF-8" }]);
  }
  const problem = textProblem(text);
  if (problem) throw badRequest(`content ${problem}`, [{ path: ["content"], message: problem }]);
  checkContent(input.path, text);
  await putVersions(db, deploymentId, [text]);
  const rows = await db
    .update(modelUploads)
    .set({
      files: sql`${modelUploads.files} || jsonb_build_object(${input.path}::text, ${input.sha256}::text)`,
      bytes: sql`${modelUploads.bytes} + ${bytes.length}`,
    })
    .where(and(eq(modelUploads.id, input.uploadId), sql`${modelUploads.bytes} + ${bytes.length} <= ${UPLOAD_MAX_BYTES}`))
    .returning({ id: modelUploads.id });
  if (!rows.length) throw new DomainError("payload_too_large", `An upload carries at most ${UPLOAD_MAX_BYTES} bytes in all`);
  return { path: input.path, sha256: input.sha256, size: bytes.length };
}

/** Finishes an upload: one commit on its branch with every file received (all or nothing). */
export async function finishUpload(
  deps: ModelDeps,
  deploymentId: number,
  actor: UserPrincipal,
  input: { uploadId: string; message: string; deletePaths?: string[] },
) {
  const { db } = deps;
  const upload = await getUpload(db, deploymentId, actor, input.uploadId);
  const branch = await uploadTarget(db, deploymentId, actor, upload.branch);
  const head = await getCommit(db, branch.headCommitId);
  const tree: ModelTree = upload.mode === "replace" ? { ...upload.files } : { ...branch.workTree, ...upload.files };
  if (upload.mode === "merge") for (const p of input.deletePaths ?? []) delete tree[p];
  checkTreeSize(tree);
  const changed = new Set([...Object.keys(tree), ...Object.keys(head.tree)].filter((p) => tree[p] !== head.tree[p])).size;
  const files = await filesOf(db, deploymentId, tree);
  const problems = problemsOf(files);
  const toDefault = branch.name === DEFAULT_BRANCH;
  if (toDefault && problems.length) throw invalidModel(problems, `The upload does not compile; only a valid model goes to "${DEFAULT_BRANCH}"`);
  const build = { buildStatus: problems.length ? ("failed" as const) : ("ready" as const), buildErrors: problems };
  if (sameTree(tree, head.tree) && sameTree(tree, branch.workTree)) {
    await db.delete(modelUploads).where(eq(modelUploads.id, upload.id));
    return { branch: branch.name, commit: null, valid: !problems.length, errors: problems, filesChanged: 0 };
  }
  if (toDefault && deps.pushToRemote) await deps.pushToRemote(deploymentId, tree, files, input.message, actor);
  const c = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(modelCommits)
      .values({ deploymentId, branch: branch.name, parentId: head.id, tree, authorUserId: actor.userId, authorName: authorName(actor), message: input.message })
      .returning();
    await casBranch(tx, branch, { headCommitId: row!.id, workTree: tree, ...build });
    if (toDefault) await mirrorDefaultBranch(tx, deploymentId, tree);
    await tx.delete(modelUploads).where(eq(modelUploads.id, upload.id));
    return row!;
  });
  if (toDefault) await deps.queryEngines.invalidateDeploymentModel(deploymentId);
  return { branch: branch.name, commit: commitView(c), valid: !problems.length, errors: problems, filesChanged: changed };
}

// ---------------------------------------------------------------------------------------------
// Queries on a branch.
// ---------------------------------------------------------------------------------------------

/**
 * The query engine for a branch (`branch=`, or the caller's dev branch in dev mode), or null for
 * production (`main`). Only platform developers (and higher) query branches; an invalid model
 * answers 400 `data_model_invalid` naming its files.
 */
export async function branchEngine(deps: ModelDeps, deploymentId: number, actor: UserPrincipal | null, branch?: string) {
  if (!actor) {
    if (branch) throw forbidden("Only platform developers query a branch");
    return null;
  }
  if (branch === undefined && !hasRole(actor, "developer")) return null;
  const name = branch ?? (await devBranchOf(deps.db, deploymentId, actor.userId));
  if (!name || name === DEFAULT_BRANCH) return null;
  if (!hasRole(actor, "developer")) throw forbidden("Only developers and admins query a branch");
  const b = await getBranch(deps.db, deploymentId, name);
  const key = `${b.name}:${sha256Of(JSON.stringify(Object.entries(b.workTree).sort()))}`;
  return deps.queryEngines.getWithModel(deploymentId, key, async () => {
    try {
      return compileModel(await filesOf(deps.db, deploymentId, b.workTree));
    } catch (e) {
      if (e instanceof DataModelError)
        throw invalidModel(problemsOf(await filesOf(deps.db, deploymentId, b.workTree)), `The model of branch "${b.name}" does not compile`);
      throw e;
    }
  });
}
