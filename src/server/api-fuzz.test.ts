import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatFindings, fuzzApi, recordingLogger } from "./testing/fuzz/api-fuzzer";
import { FuzzWorld } from "./testing/fuzz/fuzz-world";
import { createTestPlatform, storageKinds, type TestPlatform } from "./testing/test-platform";

/**
 * Property-based fuzzing of the whole API, driven by the app's own OpenAPI document: every
 * operation gets valid, near-valid and hostile requests (bodies, path and query parameters,
 * headers) as the admin, a viewer, an embed viewer and nobody. A fixed seed and a bounded
 * number of requests keep it short; `npx tsx scripts/fuzz-api.ts --runs 5000 --seed N` is the
 * long run.
 */
const SEED = 20_260_601;
const PER_OPERATION = 4;

describe.each(storageKinds)("API fuzz (%s)", (storage) => {
  const logger = recordingLogger();
  let t: TestPlatform;
  beforeAll(async () => {
    t = await createTestPlatform({ storage, mutateDeps: (deps) => ({ ...deps, logger }) });
  });
  afterAll(() => t?.close());

  it("sees every write in its database fingerprint, and no change from a refused request", async () => {
    const world = new FuzzWorld(t);
    try {
      const before = await world.checksum();
      expect((await t.api("POST", "/api/v1/users/", { email: "seen@example.com" })).status).toBe(201);
      const afterWrite = await world.checksum();
      expect(afterWrite.get("users")).not.toBe(before.get("users"));
      expect((await t.api("POST", "/api/v1/users/", { email: "seen@example.com", lastName: "\u0000" })).status).toBe(400);
      expect(await world.checksum()).toEqual(afterWrite);
    } finally {
      world.close();
    }
  });

  it(
    "never answers 5xx or not at all; answers every 4xx with {code, message} and a known code; " +
      "refuses bad text and deep JSON; changes nothing when it refuses",
    async () => {
      const report = await fuzzApi(t, logger, { perOperation: PER_OPERATION, seed: SEED });
      expect(report.findings, `fuzz findings (seed ${SEED}):\n\n${formatFindings(report.findings)}`).toEqual([]);
      expect(report.requests).toBe(PER_OPERATION * report.operations);
      // The generated requests reach past validation: some succeed, writes among them.
      const ok = Object.entries(report.statuses).filter(([status]) => Number(status) < 300);
      expect(ok.reduce((n, [, count]) => n + count, 0)).toBeGreaterThan(report.requests / 20);
      expect(report.statuses["201"] ?? 0).toBeGreaterThan(0);
    },
    180_000,
  );
});
