import { z } from "zod";
import { LONG_TEXT_MAX, SafeText, Timestamp } from "./common";

/** Most files one model (a branch's tree) may hold. */
export const MODEL_MAX_FILES = 2000;
/** Largest model file, in bytes of UTF-8. */
export const MODEL_FILE_MAX_BYTES = LONG_TEXT_MAX;
/** Most bytes one upload may carry in all. */
export const UPLOAD_MAX_BYTES = 64 * 1024 * 1024;

/** The folder of a repository (and of `svc model push`) that holds the model files. */
export const MODEL_DIR = "model";

/**
 * A model file path: relative to the model folder, `/`-separated, ending in .yml or .yaml, no
 * `..`, no empty or hidden segment; it can never leave the model folder. `x.yml` and
 * `model/x.yml` name the same file: a leading `model/` (the folder itself, as a repository
 * shows it) is dropped, and the stored, canonical form never carries it. A folder named `model`
 * inside the model folder is therefore refused (`model/model/x.yml` would be ambiguous).
 */
export const ModelPath = SafeText.min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*\.ya?ml$/, "must be a relative .yml or .yaml path inside the model folder")
  .refine((p) => !p.split("/").some((s) => s === ".." || s === "."), "must not contain '..'")
  .transform((p) => canonicalModelPath(p))
  .refine((p) => !p.startsWith(`${MODEL_DIR}/`), `must not name a folder "${MODEL_DIR}" inside the model folder`)
  .meta({
    description: "Path inside the model folder (e.g. `cubes/orders.yml`); `model/cubes/orders.yml` names the same file. Answers use the form without `model/`.",
  });

/** The stored form of a model path: without the leading `model/`. */
export function canonicalModelPath(p: string): string {
  return p.startsWith(`${MODEL_DIR}/`) ? p.slice(MODEL_DIR.length + 1) : p;
}

/** A branch name: letters, digits, `.`, `_`, `-`, `/`; no `..`, at most 100 characters. */
export const BranchName = SafeText.min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, "must start with a letter or digit and hold only letters, digits, '.', '_', '-', '/'")
  .refine((n) => !n.includes("..") && !n.endsWith("/") && !n.endsWith(".lock"), "is not a valid branch name")
  .meta({ description: "Branch name." });

const Sha256 = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "must be a lowercase hex sha256")
  .meta({ description: "sha256 of the file content (UTF-8), hex." });

export const ModelProblem = z
  .object({ path: z.string(), line: z.number().int().optional(), message: z.string() })
  .meta({ id: "ModelProblem", description: "One problem of a model: the file, the line when known, and what is wrong." });

/** The answer of every write: the branch's model compiled as a whole. */
export const ModelWriteResult = z
  .object({
    branch: z.string(),
    valid: z.boolean(),
    errors: z.array(ModelProblem),
    version: z.number().int().meta({ description: "The branch's version after the write (compare-and-swap counter)." }),
  })
  .meta({ id: "ModelWriteResult" });

export const ModelFile = z
  .object({ path: z.string(), sha256: Sha256, size: z.number().int(), content: z.string().optional() })
  .meta({ id: "ModelFile", description: "A model file; `content` only when one file is read." });

export const ModelFileList = z.object({ branch: z.string(), commit: z.number().int(), files: z.array(ModelFile) }).meta({ id: "ModelFileList" });

export const FilesQuery = z.object({
  branch: BranchName.optional().meta({ description: "Branch to read; default the caller's dev branch in dev mode, else `main`." }),
  path: ModelPath.optional().meta({ description: "Read this one file, with its content." }),
});

export const WriteFileInput = z.strictObject({ path: ModelPath, content: SafeText.max(LONG_TEXT_MAX) }).meta({ id: "WriteModelFileInput" });
export const DeleteFileQuery = z.object({ path: ModelPath });
export const RenameFileInput = z.strictObject({ from: ModelPath, to: ModelPath }).meta({ id: "RenameModelFileInput" });

export const ModelBranch = z
  .object({
    name: z.string(),
    headCommitId: z.number().int(),
    parentBranch: z.string().nullable(),
    ownerUserId: z.number().int().nullable(),
    isDefault: z.boolean(),
    hasUncommittedChanges: z.boolean(),
    version: z.number().int(),
    buildStatus: z.enum(["building", "ready", "failed"]),
    createdAt: Timestamp,
  })
  .meta({ id: "ModelBranch" });
export const ModelBranchList = z.object({ items: z.array(ModelBranch) }).meta({ id: "ModelBranchList" });

export const DevModeInput = z.strictObject({ baseBranch: BranchName.optional() }).meta({ id: "DevModeInput" });
export const CreateBranchInput = z.strictObject({ name: BranchName, from: BranchName.default("main") }).meta({ id: "CreateModelBranchInput" });

export const CommitInput = z.strictObject({ message: SafeText.trim().min(1).max(2000) }).meta({ id: "ModelCommitInput" });
export const ModelCommit = z
  .object({
    id: z.number().int(),
    branch: z.string(),
    parentId: z.number().int().nullable(),
    mergeParentId: z.number().int().nullable(),
    authorName: z.string(),
    message: z.string(),
    createdAt: Timestamp,
  })
  .meta({ id: "ModelCommit" });
export const CommitResult = z
  .object({
    branch: z.string(),
    commit: ModelCommit.nullable().meta({ description: "Null when there was nothing to commit." }),
    valid: z.boolean(),
    errors: z.array(ModelProblem),
  })
  .meta({ id: "ModelCommitResult" });

export const PullInput = z
  .strictObject({
    from: BranchName.optional().meta({
      description: "Branch to pull from; default the branch's parent (refreshed from the connected git remote first, if any).",
    }),
  })
  .meta({ id: "ModelPullInput" });
export const MergeInput = z.strictObject({ from: BranchName, into: BranchName }).meta({ id: "ModelMergeInput" });
export const MergeToDefaultInput = z
  .strictObject({ branch: BranchName, removeBranchAfterMerge: z.boolean().default(true) })
  .meta({ id: "ModelMergeToDefaultInput" });
export const MergeResult = z
  .object({
    into: z.string(),
    commit: ModelCommit.nullable().meta({ description: "The new commit; null when there was nothing to bring in." }),
    fastForward: z.boolean(),
    branchRemoved: z.boolean().optional(),
    pushed: z.boolean().optional().meta({ description: "Whether the result was pushed to the connected git remote." }),
  })
  .meta({ id: "ModelMergeResult" });

export const BranchQuery = z.object({ branch: BranchName.optional() });

export const UploadStartInput = z
  .strictObject({ branch: BranchName, mode: z.enum(["replace", "merge"]).default("merge") })
  .meta({ id: "ModelUploadStartInput" });
export const UploadStartResult = z.object({ uploadId: z.string() }).meta({ id: "ModelUploadStartResult" });
export const UploadFileInput = z
  .strictObject({
    uploadId: z.string().regex(/^[0-9a-f-]{36}$/, "must be an upload id"),
    path: ModelPath,
    // No length limit here: a file over MODEL_FILE_MAX_BYTES is refused with 413 and a clear message (the 1 MiB body limit bounds the request).
    content: z
      .string()
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be base64")
      .meta({ description: "File content, base64." }),
    sha256: Sha256,
  })
  .meta({ id: "ModelUploadFileInput" });
export const UploadFileResult = z.object({ path: z.string(), sha256: z.string(), size: z.number().int() }).meta({ id: "ModelUploadFileResult" });
export const UploadFinishInput = z
  .strictObject({
    uploadId: z.string().regex(/^[0-9a-f-]{36}$/, "must be an upload id"),
    message: SafeText.trim().min(1).max(2000).default("Upload"),
    deletePaths: z.array(ModelPath).max(MODEL_MAX_FILES).optional().meta({ description: "In `merge` mode: files to delete in the same commit." }),
  })
  .meta({ id: "ModelUploadFinishInput" });
export const UploadFinishResult = z
  .object({ branch: z.string(), commit: ModelCommit.nullable(), valid: z.boolean(), errors: z.array(ModelProblem), filesChanged: z.number().int() })
  .meta({ id: "ModelUploadFinishResult" });
export const FileHashes = z.record(z.string(), z.string()).meta({ id: "ModelFileHashes", description: "Path → sha256 of every file of the branch." });

export const BuildStatus = z
  .object({
    branch: z.string(),
    commit: z.number().int(),
    status: z.enum(["building", "ready", "failed"]),
    errors: z.array(ModelProblem),
    builtAt: Timestamp,
    jobs: z
      .array(z.object({ id: z.string(), kind: z.string(), status: z.string(), createdAt: Timestamp }))
      .optional()
      .meta({ description: "Background jobs writing to this branch (dbt sync)." }),
  })
  .meta({ id: "BuildStatus" });

export const GitConnectInput = z
  .strictObject({
    url: SafeText.min(1).max(2048).meta({ description: "https:// or http:// URL of the repository (admins may also give a local path or file:// URL)." }),
    branch: BranchName.default("main"),
    credentials: z
      .strictObject({
        username: SafeText.max(255).optional(),
        password: SafeText.min(1).max(4096).meta({ description: "Password or access token; sealed at rest, never returned." }),
      })
      .optional(),
    oauthIntegrationId: z
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .optional()
      .meta({ description: "Use this OAuth integration's token instead of credentials." }),
  })
  .meta({ id: "GitConnectInput" });
export const GitConnection = z
  .object({ url: z.string(), branch: z.string(), hasCredentials: z.boolean(), lastRemoteSha: z.string().nullable(), imported: z.boolean() })
  .meta({ id: "GitConnection" });

export const DbtSyncInput = z.strictObject({ branchName: BranchName.optional() }).meta({ id: "DbtSyncInput" });
export const DbtSyncResult = z.object({ branchName: z.string(), syncJobId: z.string(), workflowId: z.string() }).meta({ id: "DbtSyncResult" });
export const SyncJob = z
  .object({
    id: z.string(),
    kind: z.string(),
    branch: z.string(),
    status: z.enum(["queued", "running", "succeeded", "failed"]),
    logs: z.array(z.object({ at: z.string(), level: z.enum(["info", "error"]), message: z.string() })),
    createdAt: Timestamp,
    finishedAt: Timestamp.nullable(),
  })
  .meta({ id: "SyncJob" });
