import { eq } from "drizzle-orm";
import type { EnvVarInput } from "../../../schema/operations";
import type { Db } from "../../db/connection";
import { deploymentEnvVars, deployments, type DataSourceConfig } from "../../db/schema";
import type { SecretBox } from "../../crypto/secret-box";
import { badRequest, DomainError, notFound } from "../../domain/errors";

export interface EnvVarView {
  name: string;
  value: string | null;
  secret: boolean;
  updatedAt: string;
}

async function requireDeployment(db: Db, deploymentId: number) {
  const [dep] = await db.select({ id: deployments.id }).from(deployments).where(eq(deployments.id, deploymentId));
  if (!dep) throw notFound("Deployment");
}

export async function listEnvVars(db: Db, deploymentId: number): Promise<EnvVarView[]> {
  await requireDeployment(db, deploymentId);
  const rows = await db.select().from(deploymentEnvVars).where(eq(deploymentEnvVars.deploymentId, deploymentId)).orderBy(deploymentEnvVars.name);
  return rows.map((r) => ({ name: r.name, value: r.secret ? null : r.value, secret: r.secret, updatedAt: r.updatedAt.toISOString() }));
}

/**
 * Replaces the whole set in one transaction: variables left out are removed, secrets are
 * sealed, a stored secret sent without a value keeps it. Returns the names that changed.
 */
export async function setEnvVars(db: Db, box: SecretBox, deploymentId: number, input: EnvVarInput[]): Promise<string[]> {
  await requireDeployment(db, deploymentId);
  const seen = new Set<string>();
  input.forEach((v, i) => {
    if (seen.has(v.name)) throw badRequest(`${v.name} appears twice`, [{ path: [i, "name"], message: "appears twice" }]);
    seen.add(v.name);
  });
  return db.transaction(async (tx) => {
    const stored = new Map(
      (await tx.select().from(deploymentEnvVars).where(eq(deploymentEnvVars.deploymentId, deploymentId)).for("update")).map((r) => [r.name, r]),
    );
    const rows = input.map((v, i) => {
      const prev = stored.get(v.name);
      let plain: string;
      if (v.value === undefined || v.value === null) {
        if (!prev || prev.secret !== v.secret)
          throw badRequest(`${v.name} needs a value`, [{ path: [i, "value"], message: "is required for a new variable or a change of secrecy" }]);
        plain = prev.secret ? box.open(prev.valueEncrypted!) : prev.value!;
      } else plain = v.value;
      return v.secret
        ? { deploymentId, name: v.name, secret: true, value: null, valueEncrypted: box.seal(plain), plain }
        : { deploymentId, name: v.name, secret: false, value: plain, valueEncrypted: null, plain };
    });
    const changed = new Set<string>([...stored.keys()].filter((n) => !seen.has(n)));
    for (const row of rows) {
      const prev = stored.get(row.name);
      const prevPlain = prev ? (prev.secret ? box.open(prev.valueEncrypted!) : prev.value) : undefined;
      if (!prev || prev.secret !== row.secret || prevPlain !== row.plain) changed.add(row.name);
    }
    await tx.delete(deploymentEnvVars).where(eq(deploymentEnvVars.deploymentId, deploymentId));
    if (rows.length) await tx.insert(deploymentEnvVars).values(rows.map(({ plain: _plain, ...r }) => r));
    return [...changed].sort();
  });
}

/** The deployment's variables with secrets opened: for the engines only, never for a response. */
export async function envVarValues(db: Db, box: SecretBox, deploymentId: number): Promise<Map<string, string>> {
  const rows = await db.select().from(deploymentEnvVars).where(eq(deploymentEnvVars.deploymentId, deploymentId));
  return new Map(rows.map((r) => [r.name, r.secret ? box.open(r.valueEncrypted!) : (r.value ?? "")]));
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]{0,127})\}/g;

/** `${NAME}` in a data-source setting replaced by the deployment's variable; an unknown name stops the build. */
export function substituteEnvRefs(value: string, vars: Map<string, string>, setting: string): string {
  return value.replace(REFERENCE, (_m, name: string) => {
    const found = vars.get(name);
    if (found === undefined)
      throw new DomainError("datasource_unavailable", `The data source setting ${setting} refers to \${${name}}, which is not set for this deployment`);
    return found;
  });
}

/** A data-source config with every `${NAME}` resolved; the password is resolved after it is opened, by the caller. */
export function resolveDataSourceRefs(config: DataSourceConfig, vars: Map<string, string>): DataSourceConfig {
  if (config.type === "duckdb") return { ...config, path: substituteEnvRefs(config.path, vars, "path") };
  return {
    ...config,
    host: substituteEnvRefs(config.host, vars, "host"),
    database: substituteEnvRefs(config.database, vars, "database"),
    user: substituteEnvRefs(config.user, vars, "user"),
  };
}
