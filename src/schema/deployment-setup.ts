import { z } from "zod";
import { SafeText } from "./common";
import { CloudProvider, CreationMethod, DataSourceInput, DeployMode } from "./deployment";

/** The set-up wizard's steps, in order. */
export const SETUP_STEPS = ["data-source", "data-model", "embedding", "done"] as const;
export const SetupStep = z.enum(SETUP_STEPS).meta({ id: "SetupStep" });
export type SetupStep = z.infer<typeof SetupStep>;

/** An exact origin (scheme, host, optional port); no path, no wildcard. */
const Origin = SafeText.max(300).refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/$/, "");
  } catch {
    return false;
  }
}, "must be an origin like https://app.example.com");

/** The input each step takes; validated by `creation-step/advance`. */
export const SetupStepInputs = {
  "data-source": z.strictObject({ dataSource: DataSourceInput.optional().meta({ description: "Replace the data source given at creation." }) }),
  "data-model": z.strictObject({}),
  embedding: z.strictObject({
    allowedOrigins: z.array(Origin).max(100).optional().meta({ description: "Host origins to allow to embed (added to the account's list; admins only)." }),
  }),
  done: z.strictObject({}),
} as const;

export const AdvanceSetupInput = z
  .strictObject({
    step: SetupStep.meta({ description: "The step being completed: must be the current one." }),
    input: z.record(z.string(), z.unknown()).default({}).meta({ description: "The step's input (see the step list in docs/data-model.md)." }),
  })
  .meta({ id: "AdvanceSetupInput" });

export const DeploymentSetup = z
  .object({
    deploymentId: z.number().int(),
    cloudProvider: CloudProvider,
    creationMethod: CreationMethod,
    deployMode: DeployMode,
    region: z.string().nullable(),
    step: SetupStep,
    steps: z.array(SetupStep),
    completed: z.array(SetupStep),
  })
  .meta({ id: "DeploymentSetup" });
