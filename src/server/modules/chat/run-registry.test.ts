import { describe, expect, it } from "vitest";
import { DomainError } from "../../domain/errors";
import { createChatRunRegistry, type ChatRun, type Line } from "./run-registry";

const cutoff = (threadId: string, messageId: string) => ({ __cutoff__: true, chatId: threadId, messageId });

/** A run that has said its cutoff and one delta. */
function streamingRun(runs: ReturnType<typeof createChatRunRegistry>, threadId = "t1", messageId = "m1", ownerKey = "user:1") {
  const { run } = runs.claim(threadId, messageId, ownerKey);
  runs.advance(run, "prepared", { line: cutoff(threadId, messageId) });
  runs.say(run, { id: "p1", isDelta: true, type: "text", text: "Electronics" });
  return run;
}

/** A promise and the function that settles it. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("createChatRunRegistry", () => {
  it("finds a run by thread and messageId, and a second claim of it joins the first", () => {
    const runs = createChatRunRegistry();
    const first = runs.claim("t1", "m1", "user:1");
    expect(first.isNew).toBe(true);
    expect(first.run.state).toBe("pending");
    const second = runs.claim("t1", "m1", "user:1");
    expect(second.isNew).toBe(false);
    expect(second.run).toBe(first.run);
    expect(runs.find("t1", "m1")).toBe(first.run);
    expect(runs.find("t1", "m2")).toBeUndefined();
    expect(runs.find("t2", "m1")).toBeUndefined();
    expect(runs.claim("t1", "m2", "user:1").isNew).toBe(true);
    expect(runs.size).toBe(2);
  });

  it("keeps the lines said, tells each listener, and ends their stream with the last line", () => {
    const runs = createChatRunRegistry();
    const run = streamingRun(runs);
    const heard: (Line | null)[] = [];
    runs.listen(run, (line) => heard.push(line));
    runs.say(run, { id: "p1", isDelta: true, type: "text", text: " leads" });
    runs.advance(run, "answered", { line: { __state__: { id: "m1" } }, stored: new Promise(() => {}) });
    expect(run.state).toBe("storing");
    expect(run.lines).toHaveLength(4);
    expect(heard).toEqual([{ id: "p1", isDelta: true, type: "text", text: " leads" }, { __state__: { id: "m1" } }, null]);
    // Said to its end: no more lines, and nothing left to listen to.
    expect(() => runs.say(run, { id: "p2" })).toThrow(DomainError);
    const late: (Line | null)[] = [];
    runs.listen(run, (line) => late.push(line));
    expect(late).toEqual([]);
  });

  it("holds an answer while it is stored and removes it when it is done", async () => {
    const runs = createChatRunRegistry();
    const run = streamingRun(runs);
    const write = deferred();
    runs.advance(run, "answered", { line: { __state__: {} }, stored: write.promise });
    expect(runs.find("t1", "m1")).toBe(run);
    expect(runs.isAnswering("t1", "m1")).toBe(false);
    write.resolve();
    await run.stored;
    runs.advance(run, "stored");
    expect(run.state).toBe("done");
    expect(runs.find("t1", "m1")).toBeUndefined();
    expect(runs.size).toBe(0);
    // The same messageId asked again is a new run.
    expect(runs.claim("t1", "m1", "user:1").isNew).toBe(true);
  });

  it("removes a refused run and one that found its answer stored at once", () => {
    const runs = createChatRunRegistry();
    const refused = runs.claim("t1", "m1", "user:1").run;
    runs.advance(refused, "refused", { line: { error: { code: "forbidden", message: "No view" } } });
    expect(refused.state).toBe("failed");
    expect(refused.lines).toEqual([{ error: { code: "forbidden", message: "No view" } }]);
    const replayed = runs.claim("t1", "m2", "user:1").run;
    runs.say(replayed, cutoff("t1", "m2"));
    runs.advance(replayed, "found-stored", { line: { __state__: { id: "m2" } } });
    expect(replayed.state).toBe("done");
    expect(runs.size).toBe(0);
  });

  it("refuses a transition its state does not take, and changes nothing", () => {
    const runs = createChatRunRegistry();
    const run = runs.claim("t1", "m1", "user:1").run;
    const refusal = (() => {
      try {
        runs.advance(run, "stored", { line: { never: true } });
      } catch (e) {
        return e;
      }
    })();
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: "internal_error" });
    expect(run.state).toBe("pending");
    expect(run.lines).toEqual([]);
    expect(() => runs.advance(run, "answered")).toThrow(/cannot take "answered" when pending/);
  });

  it("cancels the runs of one thread that are still being written, not those being stored nor another thread's", () => {
    const runs = createChatRunRegistry();
    const pending = runs.claim("t1", "m1", "user:1").run;
    const streaming = streamingRun(runs, "t1", "m2");
    const storing = streamingRun(runs, "t1", "m3");
    runs.advance(storing, "answered", { line: { __state__: {} }, stored: new Promise(() => {}) });
    const other = streamingRun(runs, "t2", "m1");
    runs.cancelThread("t1");
    expect([pending, streaming, storing, other].map((r: ChatRun) => r.state)).toEqual(["cancelled", "cancelled", "storing", "streaming"]);
    // A cancelled run still ends: its last line is said and it is stored.
    runs.advance(streaming, "answered", { line: { __state__: {} } });
    expect(streaming.state).toBe("storing");
    runs.cancelThread("t1");
    expect(pending.state).toBe("cancelled");
  });

  it("waits for the answers being stored that match, and only for them", async () => {
    const runs = createChatRunRegistry();
    const mine = streamingRun(runs, "t1", "m1", "user:1");
    const theirs = streamingRun(runs, "t2", "m1", "user:2");
    const myWrite = deferred();
    runs.advance(mine, "answered", { line: { __state__: {} }, stored: myWrite.promise });
    runs.advance(theirs, "answered", { line: { __state__: {} }, stored: new Promise(() => {}) });

    let settled = false;
    const waiting = runs.settled((run) => run.ownerKey === "user:1").then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    myWrite.resolve();
    await waiting;
    expect(settled).toBe(true);
    // A thread with nothing being stored (a run still streaming does not count) is not waited for.
    streamingRun(runs, "t3", "m1");
    await expect(runs.settled((run) => run.threadId !== "t2")).resolves.toBeUndefined();
  });

  it("is one node's: another registry, or this one made again after a restart, holds none of its runs", () => {
    const nodeA = createChatRunRegistry();
    const run = streamingRun(nodeA);
    const nodeB = createChatRunRegistry();
    expect(nodeB.find("t1", "m1")).toBeUndefined();
    expect(nodeB.isAnswering("t1", "m1")).toBe(false);
    // B starts a run of its own for the same messageId (the stored rows settle which answer is kept).
    const claimed = nodeB.claim("t1", "m1", "user:1");
    expect(claimed.isNew).toBe(true);
    expect(claimed.run).not.toBe(run);
    // Each moves only the runs it holds.
    expect(() => nodeB.advance(run, "cancel")).toThrow(/Not a chat run this node holds/);
    expect(() => nodeB.say(run, { id: "p2" })).toThrow(DomainError);
    expect(run.state).toBe("streaming");
    expect(claimed.run.state).toBe("pending");
  });
});
