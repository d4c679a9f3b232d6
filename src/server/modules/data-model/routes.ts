import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  BranchQuery,
  BuildStatus,
  CommitInput,
  CommitResult,
  CreateBranchInput,
  DbtSyncInput,
  DbtSyncResult,
  SyncJob,
  DeleteFileQuery,
  DevModeInput,
  FileHashes,
  FilesQuery,
  GitConnectInput,
  GitConnection,
  MergeInput,
  MergeResult,
  MergeToDefaultInput,
  ModelBranch,
  ModelBranchList,
  ModelFileList,
  ModelWriteResult,
  PullInput,
  RenameFileInput,
  UploadFileInput,
  UploadFileResult,
  UploadFinishInput,
  UploadFinishResult,
  UploadStartInput,
  UploadStartResult,
  WriteFileInput,
} from "../../../schema/data-model-build";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/app-env";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { notFound } from "../../domain/errors";
import { getDeployment } from "../deployments/service";
import { GIT_HOSTS } from "../git-hosts/service";
import { getSyncJob, jobsOfBranch, startDbtSync } from "./dbt-sync";
import { connectGit, pullFromRemote, pushToRemote } from "./git";
import {
  buildStatus,
  commit,
  createBranch,
  deleteFile,
  enterDevMode,
  fileHashes,
  finishUpload,
  leaveDevMode,
  listBranches,
  listFiles,
  mergeBranches,
  pull,
  renameFile,
  startUpload,
  uploadFile,
  writeFile,
  type ModelDeps,
} from "./service";

const BASE = "/build/api/v1/deployments/{deploymentId}";
const params = z.object({ deploymentId: IdParam });
const errors = { ...commonErrors, ...notFoundError };
const writeErrors = { ...errors, ...conflictError, 413: jsonContent(z.object({ code: z.string(), message: z.string() }), "A file or upload is too large.") };

const route = <T extends Parameters<typeof createRoute>[0]>(r: T) => createRoute({ security, ...r });

const devModeEnter = route({
  operationId: "enterDevMode",
  method: "post",
  path: `${BASE}/dev-mode`,
  tags: ["Environments"],
  summary: "Enter dev mode: the caller's personal branch dev-<user>-<hash>, forked from baseBranch (default main)",
  request: { params, ...jsonBody(DevModeInput, { required: false }) },
  responses: { 200: jsonContent(ModelBranch, "The caller's dev-mode branch."), ...errors },
});
const devModeLeave = route({
  operationId: "leaveDevMode",
  method: "delete",
  path: `${BASE}/dev-mode`,
  tags: ["Environments"],
  summary: "Leave dev mode (the branch stays)",
  request: { params },
  responses: { 204: { description: "Left dev mode." }, ...errors },
});
const filesGet = route({
  operationId: "listDataModelFiles",
  method: "get",
  path: `${BASE}/data-model/files`,
  tags: ["Data Model"],
  summary: "Files of a branch with their hashes; with path=, that one file with its content",
  request: { params, query: FilesQuery },
  responses: { 200: jsonContent(ModelFileList, "The files."), ...errors },
});
const filesPut = route({
  operationId: "writeDataModelFile",
  method: "put",
  path: `${BASE}/data-model/files`,
  tags: ["Data Model"],
  summary: "Write a file on the caller's dev branch; answers the branch's model compiled as a whole (invalid files are kept)",
  request: { params, ...jsonBody(WriteFileInput) },
  responses: { 200: jsonContent(ModelWriteResult, "Whether the branch's model compiles."), ...writeErrors },
});
const filesDelete = route({
  operationId: "deleteDataModelFile",
  method: "delete",
  path: `${BASE}/data-model/files`,
  tags: ["Data Model"],
  summary: "Delete a file on the caller's dev branch",
  request: { params, query: DeleteFileQuery },
  responses: { 200: jsonContent(ModelWriteResult, "Whether the branch's model compiles."), ...writeErrors },
});
const filesRename = route({
  operationId: "renameDataModelFile",
  method: "post",
  path: `${BASE}/data-model/files/rename`,
  tags: ["Data Model"],
  summary: "Rename a file on the caller's dev branch",
  request: { params, ...jsonBody(RenameFileInput) },
  responses: { 200: jsonContent(ModelWriteResult, "Whether the branch's model compiles."), ...writeErrors },
});
const hashes = route({
  operationId: "getDataModelFileHashes",
  method: "get",
  path: `${BASE}/data-model/file-hashes`,
  tags: ["Data Model Uploads"],
  summary: "sha256 of every file of a branch, so a client uploads only what changed",
  request: { params, query: BranchQuery },
  responses: { 200: jsonContent(FileHashes, "Path → sha256."), ...errors },
});
const upStart = route({
  operationId: "startDataModelUpload",
  method: "post",
  path: `${BASE}/data-model/upload/start`,
  tags: ["Data Model Uploads"],
  summary: "Start an upload to a branch (replace its files, or merge into them)",
  request: { params, ...jsonBody(UploadStartInput) },
  responses: { 200: jsonContent(UploadStartResult, "The upload."), ...errors },
});
const upFile = route({
  operationId: "uploadDataModelFile",
  method: "post",
  path: `${BASE}/data-model/upload/file`,
  tags: ["Data Model Uploads"],
  summary: "Add one file (base64) to an upload; its sha256 is checked",
  request: { params, ...jsonBody(UploadFileInput) },
  responses: { 200: jsonContent(UploadFileResult, "The file received."), ...writeErrors },
});
const upFinish = route({
  operationId: "finishDataModelUpload",
  method: "post",
  path: `${BASE}/data-model/upload/finish`,
  tags: ["Data Model Uploads"],
  summary: "Finish an upload: one atomic commit on its branch (on main only a valid model)",
  request: { params, ...jsonBody(UploadFinishInput) },
  responses: { 200: jsonContent(UploadFinishResult, "The commit."), ...writeErrors },
});
const branchesGet = route({
  operationId: "listModelBranches",
  method: "get",
  path: `${BASE}/branches`,
  tags: ["Environments"],
  summary: "Branches of the deployment's model",
  request: { params },
  responses: { 200: jsonContent(ModelBranchList, "The branches."), ...errors },
});
const branchesPost = route({
  operationId: "createModelBranch",
  method: "post",
  path: `${BASE}/branches`,
  tags: ["Environments"],
  summary: "Create a branch from another branch's head",
  request: { params, ...jsonBody(CreateBranchInput) },
  responses: { 201: jsonContent(ModelBranch, "The branch."), ...errors, ...conflictError },
});
const commitRoute = route({
  operationId: "commitDataModel",
  method: "post",
  path: `${BASE}/commit`,
  tags: ["Data Model"],
  summary: "Record the caller's dev branch's changes as a commit",
  request: { params, ...jsonBody(CommitInput) },
  responses: { 200: jsonContent(CommitResult, "The commit (null when nothing changed)."), ...errors, ...conflictError },
});
const pullRoute = route({
  operationId: "pullDataModel",
  method: "post",
  path: `${BASE}/pull`,
  tags: ["Data Model"],
  summary: "Bring the parent branch's (or the git remote's) new commits into the caller's dev branch; 409 merge_conflict lists the files",
  request: { params, ...jsonBody(PullInput, { required: false }) },
  responses: { 200: jsonContent(MergeResult, "The merge."), ...errors, ...conflictError },
});
const mergeRoute = route({
  operationId: "mergeModelBranches",
  method: "post",
  path: `${BASE}/merge`,
  tags: ["Data Model"],
  summary: "Merge one branch into another (three-way); 409 merge_conflict lists the files and changes nothing",
  request: { params, ...jsonBody(MergeInput) },
  responses: { 200: jsonContent(MergeResult, "The merge."), ...errors, ...conflictError },
});
const mergeDefault = route({
  operationId: "mergeModelToDefault",
  method: "post",
  path: `${BASE}/merge-to-default`,
  tags: ["Data Model"],
  summary: "Merge a branch into main (only a valid model); production serves it at once on every node",
  request: { params, ...jsonBody(MergeToDefaultInput) },
  responses: { 200: jsonContent(MergeResult, "The merge."), ...errors, ...conflictError },
});
const statusRoute = route({
  operationId: "getBuildStatus",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/build-status",
  tags: ["Deployments"],
  summary: "Build state of a branch's model (default: the caller's dev branch, else main)",
  request: { params, query: BranchQuery },
  responses: { 200: jsonContent(BuildStatus, "Build status."), ...errors },
});

/**
 * `POST …/{github|gitea}/connect` (spec 4.2: `/<git-host>/connect`), one path per git host like
 * the discovery routes; `…/git/connect`, the earlier path, stays for existing callers.
 */
const gitConnectRoute = (segment: string, operationId: string, deprecated = false) =>
  route({
    operationId,
    method: "post",
    path: `${BASE}/${segment}/connect`,
    tags: ["Git Host Connection"],
    summary: deprecated
      ? "Connect the model to a git repository (earlier path of the per-host connect operations)"
      : "Connect the model to a git repository: its model/ folder is imported (or main is pushed to an empty branch); pull fetches from it, merge-to-default pushes to it",
    deprecated,
    request: { params, ...jsonBody(GitConnectInput) },
    responses: { 200: jsonContent(GitConnection, "The connection (credentials are never returned)."), ...errors, ...conflictError },
  });
const gitConnectRoutes = [
  ...GIT_HOSTS.map((host) => gitConnectRoute(host, `connect${host[0]!.toUpperCase()}${host.slice(1)}Remote`)),
  gitConnectRoute("git", "connectGitRemote", true),
];

const dbtSync = route({
  operationId: "startDbtSync",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/dbt-sync",
  tags: ["Transformation-tool Sync"],
  summary:
    "Start a dbt sync: a background job reads manifest.json from the connected repository and commits one cube per dbt model on branchName (default a new branch)",
  request: { params, ...jsonBody(DbtSyncInput, { required: false }) },
  responses: { 202: jsonContent(DbtSyncResult, "The job started."), ...errors },
});
const dbtJob = route({
  operationId: "getDbtSyncJob",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/dbt-sync/{syncJobId}",
  tags: ["Transformation-tool Sync"],
  summary: "A sync job's status and log lines",
  request: { params: z.object({ deploymentId: IdParam, syncJobId: z.string().regex(/^[0-9a-f-]{36}$/, "must be a job id") }) },
  responses: { 200: jsonContent(SyncJob, "The job."), ...errors },
});

/** The model service's dependencies for a request. */
export function modelDeps(c: Context<AppEnv>): ModelDeps {
  const deps = c.get("deps");
  return { db: deps.db, logger: deps.logger, queryEngines: deps.queryEngines, pushToRemote: (...a) => pushToRemote(deps, ...a) };
}

/** A developer (or admin) on an existing deployment: the only callers of the build API. */
async function developerOn(c: Context<AppEnv>, deploymentId: number) {
  const actor = requireUser(c, "developer");
  if (!(await getDeployment(c.get("deps").db, deploymentId))) throw notFound("Deployment");
  return actor;
}

export function registerDataModelRoutes(app: Router) {
  app.openapi(devModeEnter, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    const input = c.req.valid("json") ?? {};
    return c.json(await enterDevMode(c.get("deps").db, deploymentId, actor, input.baseBranch), 200);
  });
  app.openapi(devModeLeave, async (c) => {
    const { deploymentId } = c.req.valid("param");
    await leaveDevMode(c.get("deps").db, deploymentId, await developerOn(c, deploymentId));
    return c.body(null, 204);
  });
  app.openapi(filesGet, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await listFiles(c.get("deps").db, deploymentId, actor, c.req.valid("query")), 200);
  });
  app.openapi(filesPut, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await writeFile(c.get("deps").db, deploymentId, actor, c.req.valid("json")), 200);
  });
  app.openapi(filesDelete, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await deleteFile(c.get("deps").db, deploymentId, actor, c.req.valid("query").path), 200);
  });
  app.openapi(filesRename, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await renameFile(c.get("deps").db, deploymentId, actor, c.req.valid("json")), 200);
  });
  app.openapi(hashes, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await fileHashes(c.get("deps").db, deploymentId, actor, c.req.valid("query").branch), 200);
  });
  app.openapi(upStart, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await startUpload(c.get("deps").db, deploymentId, actor, c.req.valid("json")), 200);
  });
  app.openapi(upFile, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await uploadFile(c.get("deps").db, deploymentId, actor, c.req.valid("json")), 200);
  });
  app.openapi(upFinish, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await finishUpload(modelDeps(c), deploymentId, actor, c.req.valid("json")), 200);
  });
  app.openapi(branchesGet, async (c) => {
    const { deploymentId } = c.req.valid("param");
    await developerOn(c, deploymentId);
    return c.json({ items: await listBranches(c.get("deps").db, deploymentId) }, 200);
  });
  app.openapi(branchesPost, async (c) => {
    const { deploymentId } = c.req.valid("param");
    await developerOn(c, deploymentId);
    return c.json(await createBranch(c.get("deps").db, deploymentId, c.req.valid("json")), 201);
  });
  app.openapi(commitRoute, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await commit(c.get("deps").db, deploymentId, actor, c.req.valid("json").message), 200);
  });
  app.openapi(pullRoute, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    const body = c.req.valid("json") ?? {};
    const deps = modelDeps(c);
    return c.json(await pull(deps, deploymentId, actor, body.from, (id) => pullFromRemote(c.get("deps"), deps, id, actor)), 200);
  });
  app.openapi(mergeRoute, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await mergeBranches(modelDeps(c), deploymentId, actor, c.req.valid("json")), 200);
  });
  app.openapi(mergeDefault, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    const body = c.req.valid("json");
    return c.json(
      await mergeBranches(modelDeps(c), deploymentId, actor, { from: body.branch, into: "main", removeBranchAfterMerge: body.removeBranchAfterMerge }),
      200,
    );
  });
  for (const gitConnect of gitConnectRoutes) {
    app.openapi(gitConnect, async (c) => {
      const { deploymentId } = c.req.valid("param");
      const actor = await developerOn(c, deploymentId);
      return c.json(await connectGit(c.get("deps"), modelDeps(c), deploymentId, actor, c.req.valid("json")), 200);
    });
  }
  app.openapi(statusRoute, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    const status = await buildStatus(c.get("deps").db, deploymentId, actor, c.req.valid("query").branch);
    return c.json({ ...status, jobs: await jobsOfBranch(c.get("deps"), deploymentId, status.branch) }, 200);
  });
  app.openapi(dbtSync, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    const body = c.req.valid("json") ?? {};
    return c.json(await startDbtSync(c.get("deps"), deploymentId, actor, body.branchName), 202);
  });
  app.openapi(dbtJob, async (c) => {
    const { deploymentId, syncJobId } = c.req.valid("param");
    await developerOn(c, deploymentId);
    return c.json(await getSyncJob(c.get("deps"), deploymentId, syncJobId), 200);
  });
}
