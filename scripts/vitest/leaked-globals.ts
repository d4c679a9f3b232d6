/**
 * A setup file of the suite: a test file that leaves a browser document on Node's globals fails.
 * The suite's workers run file after file in one process (vitest.config.ts: `isolate: false`),
 * so a `window` left behind makes the next file's server code believe it runs in a browser
 * (the OpenAI client then refuses to start, for one). vitest's own jsdom environment installs
 * its globals before this file and removes them after it: only what a test file adds counts.
 */
import { afterAll, expect } from "vitest";

const DOCUMENT_GLOBALS = ["window", "document", "HTMLElement", "Element", "Node"] as const;
const present = () => DOCUMENT_GLOBALS.filter((key) => key in globalThis);
const atStart = present();

afterAll(() => {
  const left = present().filter((key) => !atStart.includes(key));
  expect(left, `this file left ${left.join(", ")} on the globals: give them back in afterAll`).toEqual([]);
});
