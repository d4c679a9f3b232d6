// @ts-check
/**
 * The browser apps' builds, as `npm run build` (scripts/build.mjs) and `npm start`
 * (scripts/start.mjs) both run them: the embed app (dist/embed), then the demo host page
 * (dist/demo-host), each a `vite build` in a child process.
 */
import { spawn } from "node:child_process";
import path from "node:path";

/**
 * @param {string} root the repository
 * @param {{ args?: string[], embedEnv?: Record<string, string> }} [options] extra `vite build`
 *   arguments for both, and environment for the embed app's build (`SVC_BROTLI: "later"`)
 * @returns {Promise<void>} rejects with the first build that failed
 */
export async function buildBrowser(root, options = {}) {
  const vite = path.join(root, "node_modules", "vite", "bin", "vite.js");
  const builds = [
    { config: [], env: options.embedEnv ?? {} },
    { config: ["-c", "vite.demo-host.config.ts"], env: {} },
  ];
  for (const { config, env } of builds) {
    const argv = [vite, "build", ...config, ...(options.args ?? [])];
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, argv, { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } });
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(undefined) : reject(new Error(`vite ${argv.slice(1).join(" ")} exited with ${code}`))));
    });
  }
}
