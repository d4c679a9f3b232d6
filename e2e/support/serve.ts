/**
 * Starts the browser test rig (see rig.ts) on the fixed E2E addresses. Run by Playwright's
 * webServer; stops on SIGTERM/SIGINT.
 */
import { E2E } from "./env";
import { startRig } from "./rig";

const rig = await startRig({ addresses: E2E });
process.stderr.write(`e2e platform ready at ${E2E.platformUrl}\n`);
const stop = async () => {
  await rig.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
