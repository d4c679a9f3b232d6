import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { z } from "zod";

/** What `svc login` stores. */
export const CliConfig = z.object({
  baseUrl: z.string().url(),
  apiKey: z.string().min(1),
});
export type CliConfig = z.infer<typeof CliConfig>;

/** `$XDG_CONFIG_HOME/svc/config.json`, else `~/.config/svc/config.json`. */
export function configPath(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), ".config");
  return path.join(base, "svc", "config.json");
}

/** The stored config, or null when there is none or it is unreadable. */
export async function readConfig(file: string): Promise<CliConfig | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return null;
  }
  const parsed = CliConfig.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

/** Writes the config readable by the user only (0600, folder 0700): it holds an API key. */
export async function writeConfig(file: string, config: CliConfig): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  // writeFile keeps the mode of an existing file; tighten it explicitly.
  await chmod(file, 0o600);
}

/** Base URL and key: SVC_BASE_URL / SVC_API_KEY override the stored config. */
export async function resolveCredentials(env: Record<string, string | undefined>, file: string): Promise<Partial<CliConfig>> {
  const stored = await readConfig(file);
  return { baseUrl: env.SVC_BASE_URL || stored?.baseUrl, apiKey: env.SVC_API_KEY || stored?.apiKey };
}
