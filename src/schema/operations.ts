import { z } from "zod";
import { acceptingReadBack, SafeText, Timestamp } from "./common";

/** An environment variable name: a letter or `_`, then letters, digits, `_` (up to 128). */
export const EnvVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "must be a letter or _ then letters, digits or _ (at most 128)");

export const EnvVar = z
  .object({
    name: z.string(),
    value: z.string().nullable().meta({ description: "null for a secret: its value is never returned." }),
    secret: z.boolean(),
    updatedAt: Timestamp,
  })
  .meta({ id: "EnvVar" });

export const EnvVarInput = acceptingReadBack(
  z
    .object({
      name: EnvVarName,
      value: SafeText.max(32_768)
        .nullable()
        .optional()
        .meta({ description: "Required for a new variable; for a stored secret, leaving it out keeps its value." }),
      secret: z.boolean().default(false),
    })
    .strict(),
  EnvVar,
  "EnvVarInput",
);
export type EnvVarInput = z.infer<typeof EnvVarInput>;

export const EnvVarsInput = z.array(EnvVarInput).max(500).meta({ id: "EnvVarsInput", description: "The whole set: variables left out are removed." });
export const EnvVarsResponse = z.array(EnvVar).meta({ id: "EnvVarsResponse" });

export const Region = z.object({ id: z.string(), name: z.string().nullable(), default: z.boolean() }).meta({ id: "Region" });
export const RegionsResponse = z.object({ items: z.array(Region) }).meta({ id: "RegionsResponse" });

export const Pod = z
  .object({
    id: z.string(),
    host: z.string(),
    pid: z.number().int(),
    version: z.string(),
    startedAt: Timestamp,
    lastSeenAt: Timestamp,
    status: z.enum(["running", "stopped"]),
  })
  .meta({ id: "Pod" });
export const PodsResponse = z.object({ items: z.array(Pod) }).meta({ id: "PodsResponse" });

export const LogSource = z.enum(["production", "dev"]);
export const LogContainer = z.enum(["INIT", "MAIN", "cubejs-server", "vector", "api-proxy"]);
export const LogLine = z
  .object({
    id: z.number().int(),
    time: z.string(),
    source: LogSource,
    container: LogContainer,
    level: z.enum(["info", "warn", "error"]),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "LogLine" });
export const LogsResponse = z.object({ items: z.array(LogLine) }).meta({ id: "DeploymentLogsResponse" });
