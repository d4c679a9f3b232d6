/**
 * Screens to look at. Taken only when SVC_SHOTS_DIR names a folder (`npm run test:shots` sets it),
 * so that `npm test` spends no time drawing pictures nobody opens in that run; the flows and
 * their assertions run either way. Each spec writes below the folder in a subfolder of its own.
 */
export const SHOTS_DIR = process.env.SVC_SHOTS_DIR || undefined;

/** The folder for a spec's screens (`${SVC_SHOTS_DIR}/<name>`), or undefined when none are asked for. */
export function shotsDir(name: string): string | undefined {
  return SHOTS_DIR ? `${SHOTS_DIR}/${name}` : undefined;
}
