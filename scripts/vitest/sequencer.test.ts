import { describe, expect, it } from "vitest";
import { environmentOf, groupByEnvironment } from "./sequencer";

describe("the suite's file order", () => {
  it("reads a file's environment from its docblock, else the configured one", () => {
    expect(environmentOf("// @vitest-environment jsdom\nimport x from 'y';", "node")).toBe("jsdom");
    expect(environmentOf("/**\n * @vitest-environment happy-dom\n */", "node")).toBe("happy-dom");
    expect(environmentOf("import { it } from 'vitest';", "node")).toBe("node");
  });

  it("puts each environment's files together, the configured one first, keeping each group's order", () => {
    const files = [
      ["ui-a", "jsdom"],
      ["slow-server", "node"],
      ["ui-b", "jsdom"],
      ["fast-server", "node"],
      ["ui-c", "jsdom"],
    ] as const;
    const order = groupByEnvironment(files, ([, env]) => env, "node").map(([name]) => name);
    expect(order).toEqual(["slow-server", "fast-server", "ui-a", "ui-b", "ui-c"]);
  });

  it("keeps every file", () => {
    const files = ["a", "b", "c", "d"];
    expect(groupByEnvironment(files, (f) => (f === "c" ? "jsdom" : "node"), "jsdom").sort()).toEqual(files);
  });
});
