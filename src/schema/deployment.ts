import { z } from "zod";
import { acceptingReadBack, LONG_TEXT_MAX, SafeText, Timestamp } from "./common";
import { ModelPath } from "./data-model-build";

/**
 * A deployment's data source as the API shows it. Secrets never leave the server: a
 * Postgres or MySQL password is stored sealed and shown only as `hasPassword`. Connection details are
 * shown to platform users only (embed viewers see the type), a DuckDB file path to admins only.
 */
export const DeploymentDataSource = z
  .object({
    type: z.enum(["duckdb", "postgres", "mysql"]),
    path: z.string().optional().meta({ description: "DuckDB file on the server (admins only)." }),
    host: z.string().optional(),
    port: z.number().int().optional(),
    database: z.string().optional(),
    user: z.string().optional(),
    ssl: z.boolean().optional(),
    hasPassword: z.boolean().optional().meta({ description: "Whether a Postgres or MySQL password is stored (it is never returned)." }),
  })
  .meta({ id: "DeploymentDataSource" });
export type DeploymentDataSource = z.infer<typeof DeploymentDataSource>;

/**
 * A deployment: one data model and data source, and everything scoped to it. The spec does
 * not show its fields; these are the ones the platform needs (docs/api.md).
 */
export const Deployment = z
  .object({
    id: z.number().int(),
    name: z.string(),
    dataSource: DeploymentDataSource.nullable().meta({ description: "Null until one is given (the set-up wizard's `data-source` step, or PUT)." }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Deployment" });
export type Deployment = z.infer<typeof Deployment>;

// Host names, IPv4 and bracket-less IPv6 literals; nothing that could smuggle options into a
// connection string.
const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$|^[0-9A-Fa-f:.]{2,45}$|^\$\{[A-Za-z_][A-Za-z0-9_]{0,127}\}$/;
const PG_NAME = SafeText.min(1).max(63);
// MySQL names a database in at most 64 characters and a user in at most 80 (MariaDB; MySQL 32).
const MYSQL_NAME = SafeText.min(1).max(64);
const MYSQL_USER = SafeText.min(1).max(80);

/** A DuckDB file on the server; the path must be absolute and the file must exist. Admins only. */
export const DuckDbDataSourceInput = z.strictObject({
  type: z.literal("duckdb"),
  path: SafeText.min(2).max(4096).meta({ description: "Absolute path of an existing DuckDB file on the server." }),
});

/**
 * A Postgres server. `password` is sealed at rest and never returned; on update, leaving it out
 * keeps the stored one and `null` removes it.
 */
export const PostgresDataSourceInput = z.strictObject({
  type: z.literal("postgres"),
  host: z.string().max(253).regex(HOST, "must be a host name, an IP address or ${NAME} (an environment variable of the deployment)"),
  port: z.number().int().min(1).max(65_535).default(5432),
  database: PG_NAME,
  user: PG_NAME,
  password: SafeText.max(1024).nullable().optional(),
  ssl: z.boolean().optional(),
  hasPassword: z.boolean().optional().meta({ description: "Read-only (shown by GET): accepted and ignored; leave `password` out to keep the stored one." }),
});

/**
 * A MySQL (8.0.17+) or MariaDB (10.4+) server; its database is what the model's `sql_table`s name
 * as their schema. `password` as for Postgres.
 */
export const MySqlDataSourceInput = z.strictObject({
  type: z.literal("mysql"),
  host: z.string().max(253).regex(HOST, "must be a host name, an IP address or ${NAME} (an environment variable of the deployment)"),
  port: z.number().int().min(1).max(65_535).default(3306),
  database: MYSQL_NAME,
  user: MYSQL_USER,
  password: SafeText.max(1024).nullable().optional(),
  ssl: z.boolean().optional(),
  hasPassword: z.boolean().optional().meta({ description: "Read-only (shown by GET): accepted and ignored; leave `password` out to keep the stored one." }),
});

export const DataSourceInput = z
  .discriminatedUnion("type", [DuckDbDataSourceInput, PostgresDataSourceInput, MySqlDataSourceInput])
  .meta({ id: "DataSourceInput", description: "Where a deployment's data lives: `duckdb` (admins only), `postgres` or `mysql` (MySQL or MariaDB)." });
export type DataSourceInput = z.infer<typeof DataSourceInput>;

export const DataModelFileInput = z
  .strictObject({
    path: ModelPath,
    content: SafeText.max(LONG_TEXT_MAX),
  })
  .meta({ id: "DataModelFileInput" });

/** Where a deployment runs (spec 2.9): `svccloud` is the hosted option. */
export const CloudProvider = z.enum(["svccloud", "aws", "gcp"]).meta({ id: "CloudProvider" });
/** How a deployment's model comes in (spec 2.9). */
export const CreationMethod = z.enum(["upload", "svccloud", "git", "ssh"]).meta({ id: "CreationMethod" });
/** How changes are deployed (spec 2.9): from a git remote, or from the CLI / API. */
export const DeployMode = z.enum(["git", "cli"]).meta({ id: "DeployMode" });

/** `POST /build/api/v1/deployments/`: name and how it is made (decisions.md), optionally the data source and the data model files. */
export const CreateDeploymentInput = z
  .strictObject({
    name: SafeText.trim().min(1).max(200),
    cloudProvider: CloudProvider.default("svccloud"),
    creationMethod: CreationMethod.default("upload"),
    deployMode: DeployMode.default("cli"),
    region: SafeText.min(1).max(64).optional().meta({ description: "Region of the deployment (GET /api/v1/regions/)." }),
    dataSource: DataSourceInput.optional().meta({
      description: "Optional: the set-up wizard's `data-source` step (or PUT) gives it later; until then queries answer 400 `data_source_not_configured`.",
    }),
    dataModelFiles: z
      .array(DataModelFileInput)
      .max(200)
      .optional()
      .meta({ description: "Validated as a whole before anything is stored; stored on the default branch `main`." }),
  })
  .meta({ id: "CreateDeploymentInput" });
export type CreateDeploymentInput = z.infer<typeof CreateDeploymentInput>;

/** `PUT /api/v1/deployments/{deploymentId}`: only the fields sent change. */
export const UpdateDeploymentInput = acceptingReadBack(
  z.strictObject({
    name: SafeText.trim().min(1).max(200).optional(),
    // null (what GET shows while none is set) or left out: unchanged.
    dataSource: DataSourceInput.nullable().optional(),
  }),
  Deployment,
  "UpdateDeploymentInput",
);
export type UpdateDeploymentInput = z.infer<typeof UpdateDeploymentInput>;
