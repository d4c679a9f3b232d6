import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCommand } from "../../process/spawner";
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../context";
import { modelCommits, modelGitRemotes, type ModelTree } from "../../db/schema";
import { hasRole, type UserPrincipal } from "../../domain/actor";
import { badRequest, conflict, DomainError, forbidden } from "../../domain/errors";
import { MODEL_DIR, ModelPath } from "../../../schema/data-model-build";
import { mergeTrees, sha256Of } from "./merge";
import {
  casBranch,
  DEFAULT_BRANCH,
  ensureDefaultBranch,
  filesOf,
  getCommit,
  mirrorDefaultBranch,
  problemsOf,
  putVersions,
  readVersions,
  sameTree,
} from "./store";
import type { ModelDeps, ReplayCommit } from "./service";

/** The folder of the repository that holds the model files. */
export const REPO_MODEL_DIR = MODEL_DIR;
const GIT_TIMEOUT_MS = 60_000;

type Remote = typeof modelGitRemotes.$inferSelect;

/** A remote's URL is checked before git ever sees it: http(s) for developers; a local path or file:// for admins only (it reads the server's disk). */
export function checkRemoteUrl(url: string, actor: UserPrincipal): string {
  if (/^https?:\/\//i.test(url)) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw badRequest("url is not a valid URL", [{ path: ["url"], message: "invalid URL" }]);
    }
    if (u.username || u.password) throw badRequest("Put credentials in `credentials`, not in the URL", [{ path: ["url"], message: "contains credentials" }]);
    return u.toString();
  }
  const local = url.startsWith("file://") ? url.slice("file://".length) : url;
  if (path.isAbsolute(local) && !local.split("/").includes("..")) {
    if (!hasRole(actor, "admin")) throw forbidden("Only admins connect a repository on the server's disk");
    return local;
  }
  throw badRequest("url must be an https:// or http:// URL (admins: an absolute path or file:// URL)", [{ path: ["url"], message: "unsupported URL" }]);
}

/** Runs git with no prompt, no user or system configuration, and the credentials (if any) in the environment, never on the command line. */
async function git(args: string[], opts: { cwd: string; credentials?: { username?: string; password: string } | null; env?: Record<string, string> }) {
  const env: NodeJS.ProcessEnv = {
    ...opts.env,
    PATH: process.env.PATH,
    HOME: opts.cwd,
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ASKPASS: "/bin/false",
  };
  if (opts.credentials) {
    const basic = Buffer.from(`${opts.credentials.username ?? "x-access-token"}:${opts.credentials.password}`).toString("base64");
    Object.assign(env, { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "http.extraHeader", GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}` });
  }
  // From the spawner's small helper process: a fork of the server would hold its event loop.
  const result = await runCommand("git", args, { cwd: opts.cwd, env, timeoutMs: GIT_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  if (result.code !== 0) throw new GitError(args[0] ?? "git", result.stderr || (result.timedOut ? "fatal: git timed out" : (result.error ?? "")));
  return result.stdout;
}

class GitError extends Error {
  constructor(
    readonly command: string,
    readonly stderr: string,
  ) {
    super(`git ${command} failed`);
  }
}

function credentialsOf(deps: Pick<AppDeps, "secretBox">, remote: Remote) {
  return remote.credentialsEncrypted ? (JSON.parse(deps.secretBox.open(remote.credentialsEncrypted)) as { username?: string; password: string }) : null;
}

/** Git's own message about a remote, without anything that could carry a secret. */
function remoteFailure(e: unknown): DomainError {
  const text = e instanceof GitError ? e.stderr : "";
  const line = (text.split("\n").find((l) => /^(fatal|error|remote):/.test(l)) ?? "the repository could not be reached").replace(/Authorization:[^\n]*/gi, "");
  return badRequest(`Git remote: ${line.trim().slice(0, 300)}`, [{ path: ["url"], message: "git remote failed" }]);
}

/** A scratch clone of the remote branch's tip (or an empty repository when the branch does not exist yet). */
async function checkout(remote: { url: string; branch: string }, credentials: { username?: string; password: string } | null) {
  const dir = await mkdtemp(path.join(tmpdir(), "svc-git-"));
  await git(["init", "-q", "-b", remote.branch, dir], { cwd: dir });
  let sha: string | null = null;
  try {
    await git(["fetch", "-q", "--depth=1", "--no-tags", remote.url, `refs/heads/${remote.branch}`], { cwd: dir, credentials });
    await git(["checkout", "-q", "FETCH_HEAD"], { cwd: dir });
    sha = (await git(["rev-parse", "HEAD"], { cwd: dir })).trim();
  } catch (e) {
    if (!(e instanceof GitError) || !/couldn't find remote ref/i.test(e.stderr)) {
      await rm(dir, { recursive: true, force: true });
      throw remoteFailure(e);
    }
  }
  return { dir, sha };
}

async function readModelDir(root: string): Promise<{ path: string; content: string }[]> {
  const base = path.join(root, REPO_MODEL_DIR);
  const out: { path: string; content: string }[] = [];
  const walk = async (dir: string) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile()) {
        const rel = path.relative(base, full).split(path.sep).join("/");
        // Only canonical paths: `model/model/x.yml` in a repository is not a model file (ModelPath).
        const parsed = ModelPath.safeParse(rel);
        if (parsed.success && parsed.data === rel) out.push({ path: rel, content: await readFile(full, "utf8") });
      }
    }
  };
  await walk(base);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** The model files on the remote branch's tip. */
export async function fetchRemoteModel(remote: { url: string; branch: string }, credentials: { username?: string; password: string } | null) {
  const { dir, sha } = await checkout(remote, credentials);
  try {
    return { sha, files: sha ? await readModelDir(dir) : [] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The first of `candidates` (paths in the repository) found on the connected remote's tip, or null; null too when no remote is connected. */
export async function readRemoteFile(
  deps: Pick<AppDeps, "db" | "secretBox">,
  deploymentId: number,
  candidates: string[],
): Promise<{ path: string; text: string } | null> {
  const remote = await remoteOf(deps, deploymentId);
  if (!remote) return null;
  const { dir, sha } = await checkout(remote, credentialsOf(deps, remote));
  try {
    if (!sha) return null;
    for (const candidate of candidates) {
      const text = await readFile(path.join(dir, ...candidate.split("/")), "utf8").catch(() => null);
      if (text !== null) return { path: candidate, text };
    }
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function remoteOf(deps: Pick<AppDeps, "db">, deploymentId: number) {
  const [row] = await deps.db.select().from(modelGitRemotes).where(eq(modelGitRemotes.deploymentId, deploymentId));
  return row ?? null;
}

const emailOf = (name: string) => (name.includes("@") ? name : "svc@localhost");

/** Commits what the work tree holds now, by `author` at `at` (committed by `committer`); false when nothing changed. */
async function commitAll(dir: string, message: string, author: { name: string; at: Date }, committer: UserPrincipal) {
  await git(["add", "-A", "--", REPO_MODEL_DIR], { cwd: dir });
  if (!(await git(["status", "--porcelain", "--", REPO_MODEL_DIR], { cwd: dir })).trim()) return false;
  const committerName = committer.email || `user ${committer.userId}`;
  const env = {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: emailOf(author.name),
    GIT_AUTHOR_DATE: author.at.toISOString(),
    GIT_COMMITTER_NAME: committerName,
    GIT_COMMITTER_EMAIL: emailOf(committerName),
  };
  await git(["commit", "-q", "--no-verify", "-m", message], { cwd: dir, env });
  return true;
}

/**
 * Pushes `main` to the connected remote under `model/` (before the merge is stored: a refused
 * push changes nothing). The platform commits in `history` are replayed first, oldest first, one
 * git commit each with their own message, author and time; then, when the tree still differs
 * from `files` (a merge that combined both sides), one commit with `message` by `author`.
 * False when no remote is connected.
 */
export async function pushToRemote(
  deps: Pick<AppDeps, "db" | "secretBox" | "logger">,
  deploymentId: number,
  tree: ModelTree,
  files: { path: string; content: string }[],
  message: string,
  author: UserPrincipal,
  history: ReplayCommit[] = [],
): Promise<boolean> {
  const remote = await remoteOf(deps, deploymentId);
  if (!remote) return false;
  const credentials = credentialsOf(deps, remote);
  const { dir, sha } = await checkout(remote, credentials);
  try {
    if (sha && sha !== remote.lastRemoteSha && remote.lastRemoteSha !== null)
      throw conflict("The git remote has new commits; pull them first (POST …/pull)", "merge_conflict", { remote: remote.url, files: [] });
    const target = (p: string) => path.join(dir, REPO_MODEL_DIR, ...p.split("/"));
    for (const c of history) {
      for (const change of c.changes) {
        if (change.content === null) await rm(target(change.path), { force: true });
        else {
          await mkdir(path.dirname(target(change.path)), { recursive: true });
          await writeFile(target(change.path), change.content);
        }
      }
      await commitAll(dir, c.message, { name: c.authorName, at: c.at }, author);
    }
    await rm(path.join(dir, REPO_MODEL_DIR), { recursive: true, force: true });
    for (const f of files) {
      await mkdir(path.dirname(target(f.path)), { recursive: true });
      await writeFile(target(f.path), f.content);
    }
    await commitAll(dir, message, { name: author.email || `user ${author.userId}`, at: new Date() }, author);
    const newSha = (await git(["rev-parse", "HEAD"], { cwd: dir }).catch(() => "")).trim() || null;
    if (newSha && newSha !== sha) {
      try {
        await git(["push", "-q", remote.url, `HEAD:refs/heads/${remote.branch}`], { cwd: dir, credentials });
      } catch (e) {
        throw remoteFailure(e);
      }
    }
    await deps.db.update(modelGitRemotes).set({ lastRemoteSha: newSha, lastSyncedTree: tree }).where(eq(modelGitRemotes.deploymentId, deploymentId));
    deps.logger.info("data model pushed to git", { deploymentId, sha: newSha, commits: history.length });
    return true;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Brings the remote's new commits into `main` by three-way merge (base: the tree last synced
 * with the remote). A conflict is 409 `merge_conflict`; only a valid model is taken.
 */
export async function pullFromRemote(deps: Pick<AppDeps, "db" | "secretBox" | "logger">, modelDeps: ModelDeps, deploymentId: number, actor: UserPrincipal) {
  const remote = await remoteOf(deps, deploymentId);
  if (!remote) return;
  const fetched = await fetchRemoteModel(remote, credentialsOf(deps, remote));
  if (!fetched.sha || fetched.sha === remote.lastRemoteSha) return;
  const db = deps.db;
  const main = await ensureDefaultBranch(db, deploymentId);
  const head = await getCommit(db, main.headCommitId);
  await putVersions(
    db,
    deploymentId,
    fetched.files.map((f) => f.content),
  );
  const theirs: ModelTree = Object.fromEntries(fetched.files.map((f) => [f.path, sha256Of(f.content)]));
  const base = remote.lastSyncedTree ?? {};
  const contents = await readVersions(db, deploymentId, [...Object.values(base), ...Object.values(head.tree), ...Object.values(theirs)]);
  const merged = mergeTrees(base, head.tree, theirs, (sha) => contents.get(sha) ?? "");
  if (!merged.ok)
    throw conflict(
      `The git remote's changes conflict with "${DEFAULT_BRANCH}" in ${merged.conflicts.map((c) => c.path).join(", ")}; nothing was changed`,
      "merge_conflict",
      {
        files: merged.conflicts,
      },
    );
  await putVersions(db, deploymentId, merged.created.values());
  if (!sameTree(merged.tree, head.tree)) {
    const problems = problemsOf(await filesOf(db, deploymentId, merged.tree));
    if (problems.length)
      throw new DomainError("data_model_invalid", `The git remote's model does not compile; "${DEFAULT_BRANCH}" was not changed`, { details: problems });
    await db.transaction(async (tx) => {
      const [c] = await tx
        .insert(modelCommits)
        .values({
          deploymentId,
          branch: DEFAULT_BRANCH,
          parentId: head.id,
          tree: merged.tree,
          authorUserId: actor.userId,
          authorName: actor.email || `user ${actor.userId}`,
          message: `Pull from ${remote.branch} (${fetched.sha!.slice(0, 12)})`,
        })
        .returning();
      await casBranch(tx, main, { headCommitId: c!.id, workTree: merged.tree, buildStatus: "ready", buildErrors: [] });
      await mirrorDefaultBranch(tx, deploymentId, merged.tree);
      await tx.update(modelGitRemotes).set({ lastRemoteSha: fetched.sha, lastSyncedTree: theirs }).where(eq(modelGitRemotes.deploymentId, deploymentId));
    });
    await modelDeps.queryEngines.invalidateDeploymentModel(deploymentId);
  } else {
    await db.update(modelGitRemotes).set({ lastRemoteSha: fetched.sha, lastSyncedTree: theirs }).where(eq(modelGitRemotes.deploymentId, deploymentId));
  }
  deps.logger.info("data model pulled from git", { deploymentId, sha: fetched.sha });
}

/**
 * Connects a deployment to a git remote: checks access, then brings the remote's model into
 * `main` (or, when the remote branch is empty or missing, pushes `main` to it).
 */
export async function connectGit(
  deps: Pick<AppDeps, "db" | "secretBox" | "logger">,
  modelDeps: ModelDeps,
  deploymentId: number,
  actor: UserPrincipal,
  input: { url: string; branch: string; credentials?: { username?: string; password: string } },
) {
  const url = checkRemoteUrl(input.url, actor);
  const credentials = input.credentials ?? null;
  const fetched = await fetchRemoteModel({ url, branch: input.branch }, credentials);
  const row = {
    deploymentId,
    url,
    branch: input.branch,
    credentialsEncrypted: credentials ? deps.secretBox.seal(JSON.stringify(credentials)) : null,
    lastRemoteSha: null,
    lastSyncedTree: null,
    connectedBy: actor.userId,
  };
  await deps.db.insert(modelGitRemotes).values(row).onConflictDoUpdate({ target: modelGitRemotes.deploymentId, set: row });
  let imported = false;
  const main = await ensureDefaultBranch(deps.db, deploymentId);
  try {
    if (fetched.sha && fetched.files.length) {
      await pullFromRemote(deps, modelDeps, deploymentId, actor);
      imported = true;
    } else {
      const files = await filesOf(deps.db, deploymentId, main.workTree);
      await pushToRemote(deps, deploymentId, main.workTree, files, "Data model from svc", actor);
    }
  } catch (e) {
    // A connection whose first sync failed is not kept: nothing changes.
    await deps.db.delete(modelGitRemotes).where(eq(modelGitRemotes.deploymentId, deploymentId));
    throw e;
  }
  const [stored] = await deps.db.select().from(modelGitRemotes).where(eq(modelGitRemotes.deploymentId, deploymentId));
  deps.logger.info("git remote connected", { deploymentId, branch: input.branch, by: actor.userId });
  return { url: stored!.url, branch: stored!.branch, hasCredentials: !!stored!.credentialsEncrypted, lastRemoteSha: stored!.lastRemoteSha, imported };
}
