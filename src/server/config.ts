import { existsSync } from "node:fs";
import { z } from "zod";

const origin = z.string().transform((value, ctx) => {
  try {
    const url = new URL(value);
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== value.replace(/\/$/, "")) {
      throw new Error("not an origin");
    }
    return url.origin;
  } catch {
    ctx.addIssue({ code: "custom", message: `"${value}" is not an origin like https://app.example.com` });
    return z.NEVER;
  }
});

const port = z.coerce.number().int().min(0).max(65535);

/** Every setting of the server, read from the environment once at start-up. */
export const ConfigSchema = z
  .object({
    PORT: port.refine((p) => p > 0, "must be 1..65535").default(8080),
    /** Address to listen on; unset: 127.0.0.1, or every interface in a container (`runsInContainer`). */
    HOST: z.string().min(1).optional(),
    DATABASE_URL: z
      .string()
      .refine((v) => /^postgres(ql)?:\/\//.test(v), "must be a postgres:// or postgresql:// URL")
      .optional(),
    SVC_DATA_DIR: z.string().min(1).default(".data"),
    SVC_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    SVC_ADMIN_TOKEN: z
      .string()
      .regex(/^svc_[A-Za-z0-9_-]{24,200}$/, "must look like svc_ followed by at least 24 of A-Z a-z 0-9 _ -")
      .optional(),
    SVC_SECRET_KEY: z.string().min(16, "must be at least 16 characters").optional(),
    SVC_ADMIN_EMAIL: z.email().default("admin@localhost.local"),
    SVC_EMBED_ALLOWED_ORIGINS: z
      .string()
      .optional()
      .transform((v) =>
        v
          ? v
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean)
          : undefined,
      )
      .pipe(z.array(origin).optional()),
    SVC_DEMO_HOST_PORT: port.default(8081),
    SVC_DEMO_ROWS: z.coerce.number().int().min(1000).max(50_000_000).default(100_000),
    SVC_DEMO: z.enum(["on", "off"]).default("on"),
    SVC_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    /** A request slower than this many ms is logged at `warn` ("slow request"); 0 turns that off. */
    SVC_SLOW_REQUEST_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
    /** Redis for the rate-limit counters (shared by every node); without it they live in Postgres. */
    REDIS_URL: z
      .string()
      .refine((v) => /^rediss?:\/\//.test(v), "must be a redis:// or rediss:// URL")
      .optional(),
    /** How often a node writes its heartbeat; a node silent for three beats is gone. */
    SVC_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
    /** How long a job claim holds without renewal: a node dead this long loses its jobs to the others. */
    SVC_JOB_LEASE_MS: z.coerce.number().int().min(500).max(3_600_000).default(30_000),
    /** On shutdown, how long the node keeps serving while its health check says `draining`, so balancers move away first. */
    SVC_DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
    /** On shutdown, how long running jobs may take to finish before they are given back to the queue. */
    SVC_JOB_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    /** Regions offered to the tenant: a JSON array of `{ id, name? }` or a comma-separated list of ids; the first is the default. */
    SVC_REGIONS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (!v) return [{ id: "local", name: null }];
        try {
          const list: unknown = v.trim().startsWith("[") ? JSON.parse(v) : v.split(",").map((id) => ({ id: id.trim() }));
          return z
            .array(z.object({ id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/), name: z.string().max(100).nullable().default(null) }).strict())
            .min(1)
            .parse(list);
        } catch {
          ctx.addIssue({ code: "custom", message: 'must be a JSON array of {"id","name"} or a comma-separated list of ids like eu-west,us-east' });
          return z.NEVER;
        }
      }),
    /** Outgoing mail for notifications: smtp://user:pass@host:port or smtps://… */
    SVC_SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
    SVC_SMTP_FROM: z.string().max(320).default("svc <svc@localhost>"),
    /** Days the deployment logs kept in storage are retained. */
    SVC_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
    /**
     * Python reports: `on` runs them only inside a verified network wall (off where the system
     * offers none), `off`, or `unisolated` (on without the network wall: report code can reach
     * every address the server can).
     */
    SVC_PYTHON_REPORTS: z.enum(["on", "off", "unisolated"]).default("on"),
    /** Python sandbox processes alive at most (each up to 256 MiB of wasm heap plus ~384 MiB). */
    SVC_PYTHON_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
    /** Python runs of one tenant at the same time. */
    SVC_PYTHON_TENANT_RUNS: z.coerce.number().int().min(1).max(64).default(1),
    /** AI (docs/ai.md): `builtin` needs no model; `openai-compatible` speaks /v1/chat/completions at SVC_AI_BASE_URL. */
    SVC_AI_PROVIDER: z.enum(["builtin", "openai-compatible"]).default("builtin"),
    SVC_AI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    SVC_AI_API_KEY: z.string().min(1).optional(),
    SVC_AI_MODEL: z.string().min(1).max(200).optional(),
    /** How long one chat turn may take, all steps included. */
    SVC_AI_TIME_BUDGET_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  })
  .superRefine((c, ctx) => {
    if (c.SVC_AI_PROVIDER === "openai-compatible" && !c.SVC_AI_BASE_URL)
      ctx.addIssue({ code: "custom", path: ["SVC_AI_BASE_URL"], message: "is required when SVC_AI_PROVIDER is openai-compatible" });
  });

/** The environment's AI settings (tenant settings may override provider, model and key: ai/settings.ts). */
export interface AiEnvSettings {
  provider: "builtin" | "openai-compatible";
  baseUrl?: string;
  /** Never logged, never returned, never put into a prompt. */
  apiKey?: string;
  model?: string;
  timeBudgetMs: number;
}

/** AI settings when none are configured: the built-in engine. */
export const DEFAULT_AI_SETTINGS: AiEnvSettings = { provider: "builtin", timeBudgetMs: 60_000 };

export function aiSettingsOf(c: z.output<typeof ConfigSchema>): AiEnvSettings {
  return { provider: c.SVC_AI_PROVIDER, baseUrl: c.SVC_AI_BASE_URL, apiKey: c.SVC_AI_API_KEY, model: c.SVC_AI_MODEL, timeBudgetMs: c.SVC_AI_TIME_BUDGET_MS };
}

export type Config = z.output<typeof ConfigSchema> & { publicUrl: string; demoHostOrigin: string | null };

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Whether the platform runs in a container: Docker (`/.dockerenv`), Podman (`/run/.containerenv`),
 * systemd-nspawn and others that set `container`, a Kubernetes pod. There its port is reached
 * through the container's network (published ports, a service), so it listens on every
 * interface; anywhere else it listens on 127.0.0.1 unless HOST says otherwise.
 */
export function runsInContainer(env: Record<string, string | undefined> = process.env, exists: (file: string) => boolean = existsSync): boolean {
  return Boolean(env.container || env.KUBERNETES_SERVICE_HOST) || exists("/.dockerenv") || exists("/run/.containerenv");
}

/** Where the platform listens, for the start-up banner. */
export function describeListenAddress(config: Pick<Config, "HOST" | "PORT">): string {
  const host = config.HOST;
  if (host === undefined || host === "0.0.0.0" || host === "::") {
    return `every interface, port ${config.PORT} (reachable from other machines; HOST=127.0.0.1 keeps it on this one)`;
  }
  const loopback = host === "localhost" || host === "::1" || host.startsWith("127.");
  const address = host.includes(":") ? `[${host}]:${config.PORT}` : `${host}:${config.PORT}`;
  return loopback ? `${address} (this machine only; HOST=0.0.0.0 listens on every interface)` : address;
}

/**
 * Validates the environment; a bad value stops the start with every bad key listed. An empty
 * variable (`X=` as docker-compose and .env files write an unset value) counts as unset, for
 * every key. This is the one place the server reads its settings from the environment. `inContainer`
 * (default: `runsInContainer`) decides where an unset HOST listens.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env, options: { inContainer?: boolean } = {}): Config {
  const known = Object.fromEntries(Object.keys(ConfigSchema.shape).map((key) => [key, env[key] === "" ? undefined : env[key]]));
  const parsed = ConfigSchema.safeParse(known);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".") || "(env)"}: ${i.message}`));
  }
  const c = parsed.data;
  const publicUrl = (c.SVC_PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, "");
  const demoHostOrigin = c.SVC_DEMO_HOST_PORT > 0 && c.SVC_DEMO === "on" ? `http://127.0.0.1:${c.SVC_DEMO_HOST_PORT}` : null;
  // Unset HOST: every interface in a container (undefined: Node's default, IPv6 and IPv4), this
  // machine only anywhere else. The default public URL (localhost) reaches it either way.
  const HOST = c.HOST ?? ((options.inContainer ?? runsInContainer(env)) ? undefined : "127.0.0.1");
  return { ...c, HOST, publicUrl, demoHostOrigin };
}
