/**
 * The order of the suite's test files: vitest's own (files that failed last time, then the
 * longest), with the files of one environment together — every `node` file, then every `jsdom`
 * file. A worker runs file after file in one process only while the next file in the queue has
 * its environment (vitest.config.ts: `isolate: false`); where node and jsdom files alternate, a
 * worker is ended and a new one imports the server and the UI anew for nearly every file.
 */
import { readFileSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const ENVIRONMENT_COMMENT = /@vitest-environment\s+([\w-]+)/;

/** The environment a test file asks for in its docblock, or the configured one. */
export function environmentOf(source: string, configured: string): string {
  return ENVIRONMENT_COMMENT.exec(source.slice(0, 2000))?.[1] ?? configured;
}

/**
 * `files` with each environment's files together, each group keeping the order it had: `first`'s
 * group first (the configured environment's, where the long files are; the short UI files then
 * fill the run's end), then the others in the order their first file appears.
 */
export function groupByEnvironment<T>(files: readonly T[], environment: (file: T) => string, first: string): T[] {
  const groups = new Map<string, T[]>([[first, []]]);
  for (const file of files) {
    const env = environment(file);
    const group = groups.get(env);
    if (group) group.push(file);
    else groups.set(env, [file]);
  }
  return [...groups.values()].flat();
}

export default class EnvironmentGroupedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return groupByEnvironment(
      sorted,
      (spec) => environmentOf(readFileSync(spec.moduleId, "utf8"), spec.project.config.environment),
      files[0]?.project.config.environment ?? "node",
    );
  }
}
