/**
 * Run by `npm install` in a checkout (the package's `prepare` script, never when svc is installed
 * as a dependency): makes this machine's migrated PGlite template (src/server/db/pglite-template.ts)
 * when it has none for these migrations, so that the first `npm start` or `npm run dev` on a new
 * machine copies its storage instead of running PGlite's initdb (about 4 s here). A failure
 * only costs that time later: the platform makes the template itself when it needs one.
 */
import { migratedPgliteDump, templateFile } from "../src/server/db/pglite-template";

const file = templateFile();
const started = Date.now();
try {
  await migratedPgliteDump();
  // On stderr: `npm pack --json` runs this too, and its stdout must stay JSON.
  if (file) process.stderr.write(`svc: storage template ready (${file}, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
} catch (error) {
  process.stderr.write(`svc: storage template not made now (${error instanceof Error ? error.message : String(error)}); the first start makes it\n`);
}
