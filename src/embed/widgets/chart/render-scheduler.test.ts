import { describe, expect, it } from "vitest";
import { createRenderScheduler } from "./render-scheduler";

describe("render scheduler", () => {
  it("runs renders one at a time with a yield between them and skips cancelled ones", async () => {
    const log: string[] = [];
    const scheduler = createRenderScheduler(async () => {
      log.push("yield");
    });
    const cancelled = new AbortController();
    cancelled.abort();
    await Promise.all([
      scheduler.schedule(() => void log.push("a")),
      scheduler.schedule(() => void log.push("never"), cancelled.signal),
      scheduler.schedule(async () => {
        await Promise.resolve();
        log.push("b");
      }),
    ]);
    expect(log).toEqual(["a", "yield", "b", "yield"]);
  });
});
