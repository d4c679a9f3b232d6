/**
 * Tables of the build feature (data models as code); re-exported by ../schema.ts so drizzle and
 * the migrations see them. Foreign keys to `deployments` and `users` are declared in the SQL
 * (0003_build_models.sql) only, so this file imports nothing back from the schema.
 */
import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/** A tree: model file path → sha256 of its content (a file version in `model_file_versions`). */
export type ModelTree = Record<string, string>;

/** One problem of a branch's model, as build status and writes report it. */
export interface ModelBuildProblem {
  path: string;
  line?: number;
  message: string;
}

/** Content-addressed file versions: one row per distinct content of a deployment's model files. */
export const modelFileVersions = pgTable(
  "model_file_versions",
  {
    deploymentId: integer("deployment_id").notNull(),
    sha256: text("sha256").notNull(),
    content: text("content").notNull(),
    size: integer("size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.sha256] })],
);

/** Commits: a whole tree, its parents (a merge has two), author and message. Never changed once written. */
export const modelCommits = pgTable(
  "model_commits",
  {
    id: serial("id").primaryKey(),
    deploymentId: integer("deployment_id").notNull(),
    /** The branch the commit was made on (history survives the branch's deletion). */
    branch: text("branch").notNull(),
    parentId: integer("parent_id"),
    mergeParentId: integer("merge_parent_id"),
    tree: jsonb("tree").$type<ModelTree>().notNull(),
    authorUserId: integer("author_user_id"),
    authorName: text("author_name").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("model_commits_deployment_idx").on(t.deploymentId, t.id)],
);

/**
 * Branches. `headCommitId` is the last commit; `workTree` the branch's files now (a dev branch
 * may hold changes not yet committed; on other branches it equals the head's tree). `version`
 * is bumped by every write: writers compare-and-swap on it, so two writers never lose a write.
 */
export const modelBranches = pgTable(
  "model_branches",
  {
    id: serial("id").primaryKey(),
    deploymentId: integer("deployment_id").notNull(),
    name: text("name").notNull(),
    headCommitId: integer("head_commit_id").notNull(),
    workTree: jsonb("work_tree").$type<ModelTree>().notNull(),
    /** The branch this one was forked from (pull brings its commits in). */
    parentBranch: text("parent_branch"),
    /** The user whose dev-mode branch this is, or null for a shared branch. */
    ownerUserId: integer("owner_user_id"),
    version: integer("version").notNull().default(1),
    buildStatus: text("build_status").$type<"building" | "ready" | "failed">().notNull().default("ready"),
    buildErrors: jsonb("build_errors")
      .$type<ModelBuildProblem[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    builtAt: timestamp("built_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("model_branches_deployment_name_idx").on(t.deploymentId, t.name)],
);

/** Who is in dev mode on which deployment, and on which branch. */
export const modelDevModes = pgTable(
  "model_dev_modes",
  {
    deploymentId: integer("deployment_id").notNull(),
    userId: integer("user_id").notNull(),
    branch: text("branch").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.userId] })],
);

/** An upload in progress: the files received so far (their versions are stored as they come). */
export const modelUploads = pgTable("model_uploads", {
  id: text("id").primaryKey(),
  deploymentId: integer("deployment_id").notNull(),
  branch: text("branch").notNull(),
  mode: text("mode").$type<"replace" | "merge">().notNull(),
  userId: integer("user_id").notNull(),
  files: jsonb("files")
    .$type<ModelTree>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  bytes: integer("bytes").notNull().default(0),
  createdAt: createdAt(),
});

/** The git remote a deployment's model is connected to; credentials sealed (secret box). */
export const modelGitRemotes = pgTable("model_git_remotes", {
  deploymentId: integer("deployment_id").primaryKey(),
  url: text("url").notNull(),
  branch: text("branch").notNull(),
  credentialsEncrypted: text("credentials_encrypted"),
  oauthIntegrationId: integer("oauth_integration_id"),
  /** The remote commit last brought in or pushed, and its model tree (the base of the next three-way merge with the remote). */
  lastRemoteSha: text("last_remote_sha"),
  lastSyncedTree: jsonb("last_synced_tree").$type<ModelTree>(),
  connectedBy: integer("connected_by"),
  createdAt: createdAt(),
});

/** Background jobs of the build feature (dbt sync): status and log lines. */
export const modelSyncJobs = pgTable("model_sync_jobs", {
  id: text("id").primaryKey(),
  deploymentId: integer("deployment_id").notNull(),
  kind: text("kind").notNull(),
  branch: text("branch").notNull(),
  status: text("status").$type<"queued" | "running" | "succeeded" | "failed">().notNull(),
  logs: jsonb("logs")
    .$type<{ at: string; level: "info" | "error"; message: string }[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  createdBy: integer("created_by"),
  createdAt: createdAt(),
  finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
});

/** How a deployment was created (spec 2.9 enums) and where its set-up wizard stands. */
export const deploymentSetups = pgTable("deployment_setups", {
  deploymentId: integer("deployment_id").primaryKey(),
  cloudProvider: text("cloud_provider").notNull(),
  creationMethod: text("creation_method").notNull(),
  deployMode: text("deploy_mode").notNull(),
  region: text("region"),
  step: text("step").notNull(),
  /** The validated input of each completed step. */
  inputs: jsonb("inputs")
    .$type<Record<string, unknown>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
