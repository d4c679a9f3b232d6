import { describe, expect, it } from "vitest";
import { readNdjson } from "./chat-test-support";
import { createChatRunRegistry } from "./run-registry";
import { followRun } from "./run-stream";

const cutoff = { __cutoff__: true, chatId: "t1", messageId: "m1" };
const delta = (text: string) => ({ id: "p1", isDelta: true, type: "text", text });
const last = { __state__: { id: "m1", status: "completed" } };

describe("followRun", () => {
  it("gives a run being written from its first line to its last, as they are said", async () => {
    const runs = createChatRunRegistry();
    const { run } = runs.claim("t1", "m1", "user:1");
    runs.advance(run, "prepared", { line: cutoff });
    runs.say(run, delta("Electronics"));
    const reading = readNdjson(new Response(followRun(runs, run)));
    await new Promise((r) => setImmediate(r));
    runs.say(run, delta(" leads"));
    runs.advance(run, "answered", { line: last, stored: new Promise(() => {}) });
    expect(await reading).toEqual([cutoff, delta("Electronics"), delta(" leads"), last]);
  });

  it("gives an answer being stored as a stored one is: its cutoff and its last line", async () => {
    const runs = createChatRunRegistry();
    const { run } = runs.claim("t1", "m1", "user:1");
    runs.advance(run, "prepared", { line: cutoff });
    runs.say(run, delta("Electronics"));
    runs.advance(run, "answered", { line: last, stored: new Promise(() => {}) });
    expect(await readNdjson(new Response(followRun(runs, run)))).toEqual([cutoff, last]);
  });

  it("gives a refused run its error line and ends", async () => {
    const runs = createChatRunRegistry();
    const { run } = runs.claim("t1", "m1", "user:1");
    const following = readNdjson(new Response(followRun(runs, run)));
    runs.advance(run, "refused", { line: { error: { code: "forbidden", message: "No view" } } });
    expect(await following).toEqual([{ error: { code: "forbidden", message: "No view" } }]);
    expect(await readNdjson(new Response(followRun(runs, run)))).toEqual([{ error: { code: "forbidden", message: "No view" } }]);
  });
});
