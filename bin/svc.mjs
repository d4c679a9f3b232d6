#!/usr/bin/env node
// The `svc` command: runs the built CLI (dist/lib/cli) when present, else the TypeScript
// sources through tsx (a dependency of the package).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/lib/cli/main.js", import.meta.url);
const { runCli } = existsSync(fileURLToPath(built))
  ? await import(built.href)
  : await (await import("tsx/esm/api")).tsImport("../src/cli/main.ts", import.meta.url);

const readStdin = async () => {
  if (process.stdin.isTTY) return "";
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text;
};

const code = await runCli(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  readStdin,
});
process.exitCode = code;
