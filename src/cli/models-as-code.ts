import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import type { SvcPlatformClient } from "../client";
import { canonicalModelPath } from "../schema/data-model-build";
import type { RollupBuildQueued, RollupList } from "../schema/rollups";
import { callApi, CliError } from "./platform-calls";

type Connect = () => Promise<{ client: SvcPlatformClient; baseUrl: string }>;
const MODEL_FILE = /\.ya?ml$/;
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const BASE = "/build/api/v1/deployments/{deploymentId}";

/** The model files under a folder: relative `/` paths in the API's canonical form (`model/x.yml` is `x.yml`) → content. */
export async function readModelFolder(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (d: string) => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const full = path.join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile() && MODEL_FILE.test(e.name)) out.set(canonicalModelPath(path.relative(dir, full).split(path.sep).join("/")), await readFile(full));
    }
  };
  await walk(dir);
  return out;
}

/** What `pushModel` did. */
export interface PushOutcome {
  branch: string;
  uploaded: string[];
  deleted: string[];
  unchanged: number;
  commit: { id: number } | null;
  valid: boolean;
  errors: { path: string; line?: number; message: string }[];
}

/**
 * Pushes a folder to a branch as one commit: asks the branch's file hashes, uploads only the
 * files whose sha256 differs, and deletes on the branch the files the folder no longer has.
 */
export async function pushModel(
  client: SvcPlatformClient,
  baseUrl: string,
  opts: { deploymentId: number; branch: string; dir: string; message: string; concurrency?: number },
): Promise<PushOutcome> {
  const local = await readModelFolder(opts.dir);
  const pathParams = { path: { deploymentId: opts.deploymentId } };
  const remote = await callApi<Record<string, string>>(client, baseUrl, "get", `${BASE}/data-model/file-hashes`, {
    params: { ...pathParams, query: { branch: opts.branch } },
  });
  const changed = [...local].filter(([p, content]) => remote[p] !== sha256(content));
  const deleted = Object.keys(remote).filter((p) => !local.has(p));
  if (!changed.length && !deleted.length)
    return { branch: opts.branch, uploaded: [], deleted: [], unchanged: local.size, commit: null, valid: true, errors: [] };
  const { uploadId } = await callApi<{ uploadId: string }>(client, baseUrl, "post", `${BASE}/data-model/upload/start`, {
    params: pathParams,
    body: { branch: opts.branch, mode: "merge" },
  });
  const queue = [...changed];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [p, content] = next;
      await callApi(client, baseUrl, "post", `${BASE}/data-model/upload/file`, {
        params: pathParams,
        body: { uploadId, path: p, content: content.toString("base64"), sha256: sha256(content) },
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 8, queue.length) }, worker));
  const done = await callApi<{ commit: { id: number } | null; valid: boolean; errors: PushOutcome["errors"] }>(
    client,
    baseUrl,
    "post",
    `${BASE}/data-model/upload/finish`,
    { params: pathParams, body: { uploadId, message: opts.message, ...(deleted.length ? { deletePaths: deleted } : {}) } },
  );
  return {
    branch: opts.branch,
    uploaded: changed.map(([p]) => p),
    deleted,
    unchanged: local.size - changed.length,
    commit: done.commit,
    valid: done.valid,
    errors: done.errors,
  };
}

/** Writes a branch's files into a folder (only those that differ), and removes model files the branch no longer has. */
export async function pullModel(client: SvcPlatformClient, baseUrl: string, opts: { deploymentId: number; branch?: string; dir: string }) {
  const pathParams = { path: { deploymentId: opts.deploymentId } };
  const list = await callApi<{ branch: string; files: { path: string; sha256: string }[] }>(client, baseUrl, "get", `${BASE}/data-model/files`, {
    params: { ...pathParams, query: opts.branch ? { branch: opts.branch } : {} },
  });
  const local = await readModelFolder(opts.dir);
  const written: string[] = [];
  for (const f of list.files) {
    const mine = local.get(f.path);
    if (mine && sha256(mine) === f.sha256) continue;
    const one = await callApi<{ files: { content: string }[] }>(client, baseUrl, "get", `${BASE}/data-model/files`, {
      params: { ...pathParams, query: { branch: list.branch, path: f.path } },
    });
    const target = path.join(opts.dir, ...f.path.split("/"));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, one.files[0]?.content ?? "");
    written.push(f.path);
  }
  const names = new Set(list.files.map((f) => f.path));
  const removed = [...local.keys()].filter((p) => !names.has(p));
  for (const p of removed) await rm(path.join(opts.dir, ...p.split("/")), { force: true });
  return { branch: list.branch, written, removed, unchanged: list.files.length - written.length };
}

function parseId(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`not a positive integer id: ${value}`, undefined, "usage");
  return n;
}

/** `svc model pull|push|dev|merge`: the data model as files in a folder, synced with a branch. */
export function registerModelCommands(
  program: Command,
  ctx: { connect: Connect; out: (line?: string) => void; err: (line: string) => void; fail: () => void },
) {
  const model = program.command("model").description("data model as code: pull, push, dev mode, merge");
  model
    .command("pull")
    .description("write a branch's model files into a folder (default: the dev branch in dev mode, else main)")
    .requiredOption("--deployment <id>", "deployment id", parseId)
    .option("--branch <name>", "branch to pull")
    .option("--dir <folder>", "model folder", "model")
    .option("--json", "print JSON")
    .action(async (opts: { deployment: number; branch?: string; dir: string; json?: boolean }) => {
      const { client, baseUrl } = await ctx.connect();
      const r = await pullModel(client, baseUrl, { deploymentId: opts.deployment, branch: opts.branch, dir: opts.dir });
      if (opts.json) ctx.out(JSON.stringify(r, null, 2));
      else ctx.out(`pulled ${r.branch} into ${opts.dir}: ${r.written.length} written, ${r.removed.length} removed, ${r.unchanged} unchanged`);
    });
  model
    .command("push")
    .description("upload a folder to a branch as one commit, sending only the files whose hash changed")
    .requiredOption("--deployment <id>", "deployment id", parseId)
    .requiredOption("--branch <name>", "branch to push to (main only takes a valid model)")
    .option("--dir <folder>", "model folder", "model")
    .option("-m, --message <text>", "commit message", "Push from svc model push")
    .option("--json", "print JSON")
    .action(async (opts: { deployment: number; branch: string; dir: string; message: string; json?: boolean }) => {
      const { client, baseUrl } = await ctx.connect();
      const r = await pushModel(client, baseUrl, { deploymentId: opts.deployment, branch: opts.branch, dir: opts.dir, message: opts.message });
      if (opts.json) ctx.out(JSON.stringify(r, null, 2));
      else {
        ctx.out(
          r.commit
            ? `pushed to ${r.branch}: commit ${r.commit.id}, ${r.uploaded.length} uploaded, ${r.deleted.length} deleted, ${r.unchanged} unchanged`
            : `${r.branch} is up to date (${r.unchanged} files)`,
        );
        for (const e of r.errors) ctx.err(`${e.path}${e.line ? `:${e.line}` : ""}: ${e.message}`);
      }
      if (!r.valid) ctx.fail();
    });
  model
    .command("dev")
    .description("enter dev mode: your own branch forked from --base (prints its name)")
    .requiredOption("--deployment <id>", "deployment id", parseId)
    .option("--base <branch>", "branch to fork from", "main")
    .option("--leave", "leave dev mode instead (the branch stays)")
    .action(async (opts: { deployment: number; base: string; leave?: boolean }) => {
      const { client, baseUrl } = await ctx.connect();
      const params = { path: { deploymentId: opts.deployment } };
      if (opts.leave) {
        await callApi(client, baseUrl, "delete", `${BASE}/dev-mode`, { params });
        ctx.out("left dev mode");
        return;
      }
      const b = await callApi<{ name: string }>(client, baseUrl, "post", `${BASE}/dev-mode`, { params, body: { baseBranch: opts.base } });
      ctx.out(b.name);
    });
  model
    .command("merge")
    .description("merge a branch into main (only a valid model; production serves it at once)")
    .requiredOption("--deployment <id>", "deployment id", parseId)
    .requiredOption("--branch <name>", "branch to merge")
    .option("--keep-branch", "keep the branch after the merge")
    .option("--json", "print JSON")
    .action(async (opts: { deployment: number; branch: string; keepBranch?: boolean; json?: boolean }) => {
      const { client, baseUrl } = await ctx.connect();
      const r = await callApi<{ commit: { id: number } | null; fastForward: boolean; pushed?: boolean }>(client, baseUrl, "post", `${BASE}/merge-to-default`, {
        params: { path: { deploymentId: opts.deployment } },
        body: { branch: opts.branch, removeBranchAfterMerge: !opts.keepBranch },
      });
      if (opts.json) ctx.out(JSON.stringify(r, null, 2));
      else ctx.out(r.commit ? `merged ${opts.branch} into main: commit ${r.commit.id}${r.pushed ? " (pushed to git)" : ""}` : "main already has every change");
    });
  model
    .command("rollups")
    .description("the production model's rollups with their state, rows, last and next build; --build <name> builds one now")
    .requiredOption("--deployment <id>", "deployment id", parseId)
    .option("--build <name>", "queue a build of this rollup now")
    .option("--json", "print JSON")
    .action(async (opts: { deployment: number; build?: string; json?: boolean }) => {
      const { client, baseUrl } = await ctx.connect();
      const params = { path: { deploymentId: opts.deployment } };
      if (opts.build) {
        const r = await callApi<RollupBuildQueued>(client, baseUrl, "post", "/api/v1/deployments/{deploymentId}/rollups/{name}/build", {
          params: { path: { deploymentId: opts.deployment, name: opts.build } },
        });
        ctx.out(opts.json ? JSON.stringify(r, null, 2) : `build of ${opts.build} queued (job ${r.jobId})`);
        return;
      }
      const r = await callApi<RollupList>(client, baseUrl, "get", "/api/v1/deployments/{deploymentId}/rollups", { params });
      if (opts.json) return ctx.out(JSON.stringify(r, null, 2));
      if (!r.rollups.length) return ctx.out("no rollups in the model");
      for (const x of r.rollups) {
        const rows = x.rowCount === null ? "-" : String(x.rowCount);
        ctx.out(
          `${x.name}\t${x.state}\t${x.cube} by ${x.granularity}\trows ${rows}\tlast ${x.lastBuildAt ?? "-"}\tnext ${x.nextBuildAt ?? "-"}${x.error ? `\terror: ${x.error}` : ""}`,
        );
      }
    });
}
