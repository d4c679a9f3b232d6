import { eq } from "drizzle-orm";
import type { Db } from "../../db/connection";
import { deploymentSetups } from "../../db/schema";
import type { UserPrincipal } from "../../domain/actor";
import { hasRole } from "../../domain/actor";
import { conflict, DomainError, forbidden, notFound, validationError } from "../../domain/errors";
import type { SecretBox } from "../../crypto/secret-box";
import { SETUP_STEPS, SetupStepInputs, type SetupStep } from "../../../schema/deployment-setup";
import { getAllowedOrigins, setAllowedOrigins } from "../account-settings/service";
import { getDeployment, updateDeployment } from "../deployments/service";
import { ensureDefaultBranch, filesOf, problemsOf } from "../data-model/store";

type SetupRow = typeof deploymentSetups.$inferSelect;

function view(row: SetupRow) {
  const index = SETUP_STEPS.indexOf(row.step as SetupStep);
  return {
    deploymentId: row.deploymentId,
    cloudProvider: row.cloudProvider as "svccloud" | "aws" | "gcp",
    creationMethod: row.creationMethod as "upload" | "svccloud" | "git" | "ssh",
    deployMode: row.deployMode as "git" | "cli",
    region: row.region,
    step: row.step as SetupStep,
    steps: [...SETUP_STEPS],
    completed: SETUP_STEPS.slice(0, Math.max(0, index)),
  };
}

/** The deployment's set-up; one created before the wizard existed (or by the demo seed) counts as done. */
async function setupOf(db: Db, deploymentId: number): Promise<SetupRow> {
  if (!(await getDeployment(db, deploymentId))) throw notFound("Deployment");
  await db
    .insert(deploymentSetups)
    .values({ deploymentId, cloudProvider: "svccloud", creationMethod: "upload", deployMode: "cli", step: "done" })
    .onConflictDoNothing();
  const [row] = await db.select().from(deploymentSetups).where(eq(deploymentSetups.deploymentId, deploymentId));
  return row!;
}

export async function getSetup(db: Db, deploymentId: number) {
  return view(await setupOf(db, deploymentId));
}

/** Deps of the wizard. */
export interface SetupDeps {
  db: Db;
  secretBox: SecretBox;
  invalidateEngine: (deploymentId: number) => Promise<void>;
}

/**
 * Completes the current step with its input and moves on. A step other than the current one is
 * 409; the input is validated per step: `data-source` gives the data source (required when the
 * deployment was created without one, else it may replace it), `data-model`
 * needs a valid, non-empty model on `main`, `embedding` may add allowed host origins (admins).
 */
export async function advanceSetup(deps: SetupDeps, deploymentId: number, actor: UserPrincipal, step: SetupStep, rawInput: Record<string, unknown>) {
  const row = await setupOf(deps.db, deploymentId);
  if (row.step === "done") throw conflict("The set-up is done; reset it to start over");
  if (row.step !== step) throw conflict(`The set-up is at step "${row.step}", not "${step}"`, "conflict", { step: row.step });
  const parsed = SetupStepInputs[step].safeParse(rawInput);
  if (!parsed.success) throw validationError(parsed.error, `input of step ${step}`, ["input"]);
  const input = parsed.data as Record<string, unknown>;
  if (step === "data-source" && !input.dataSource && !(await getDeployment(deps.db, deploymentId))?.dataSource)
    throw new DomainError("validation_failed", "The deployment has no data source yet: this step needs one (input.dataSource)", {
      details: [{ path: ["input", "dataSource"], message: "required while the deployment has no data source" }],
    });
  if (step === "data-source" && input.dataSource) {
    await updateDeployment(deps.db, deploymentId, { dataSource: input.dataSource as never }, { principal: actor, secretBox: deps.secretBox });
    await deps.invalidateEngine(deploymentId);
  }
  if (step === "data-model") {
    const main = await ensureDefaultBranch(deps.db, deploymentId);
    const files = await filesOf(deps.db, deploymentId, main.workTree);
    if (!files.length)
      throw new DomainError("validation_failed", "The deployment has no data model yet: upload it (svc model push), write it in dev mode, or connect git", {
        details: [{ path: ["input"], message: "no model files on main" }],
      });
    const problems = problemsOf(files);
    if (problems.length) throw new DomainError("data_model_invalid", "The data model on main does not compile", { details: problems });
  }
  if (step === "embedding" && Array.isArray(input.allowedOrigins) && input.allowedOrigins.length) {
    if (!hasRole(actor, "admin")) throw forbidden("Only admins change the allowed host origins");
    await setAllowedOrigins(deps.db, [...(await getAllowedOrigins(deps.db)), ...(input.allowedOrigins as string[]).map((o) => new URL(o).origin)]);
  }
  const next = SETUP_STEPS[SETUP_STEPS.indexOf(step) + 1]!;
  const stored = { ...row.inputs, [step]: step === "data-source" ? { dataSourceChanged: !!input.dataSource } : input };
  const [updated] = await deps.db
    .update(deploymentSetups)
    .set({ step: next, inputs: stored, updatedAt: new Date() })
    .where(eq(deploymentSetups.deploymentId, deploymentId))
    .returning();
  return view(updated!);
}

/** Starts the wizard over at its first step (what was set stays set). */
export async function resetSetup(db: Db, deploymentId: number) {
  await setupOf(db, deploymentId);
  const [row] = await db
    .update(deploymentSetups)
    .set({ step: SETUP_STEPS[0], inputs: {}, updatedAt: new Date() })
    .where(eq(deploymentSetups.deploymentId, deploymentId))
    .returning();
  return view(row!);
}
