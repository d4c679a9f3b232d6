/**
 * The browser benchmarks' platform in a process of its own (bench/bridge-rig.ts starts it):
 *   npx tsx bench/rig-server.ts <basePort>
 * The e2e rig (real platform, demo, fixture origins) on the ports of `rigAddresses(basePort)`;
 * prints one line, `ready`, when it listens, and stops on SIGTERM or SIGINT. Apart from the
 * browser driver, as a deployed platform is: Playwright's driver handles every event of the
 * browser in the process that runs it, and would otherwise take the server's event loop.
 */
import { rigAddresses } from "../e2e/support/env";
import { startRig } from "../e2e/support/rig";

const basePort = Number(process.argv[2]);
if (!Number.isInteger(basePort) || basePort <= 0) throw new Error("usage: tsx bench/rig-server.ts <basePort>");
const rig = await startRig({ addresses: rigAddresses(basePort), logLevel: "error" });
process.stdout.write("ready\n");
const stop = async () => {
  await rig.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
