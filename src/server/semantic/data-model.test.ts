import { describe, expect, it } from "vitest";
import { loadDataModel } from "./data-model";
import { DataModelError } from "./errors";

const problemsOf = (content: string, extra: { path: string; content: string }[] = []) => {
  try {
    loadDataModel([{ path: "model.yml", content }, ...extra]);
  } catch (e) {
    if (e instanceof DataModelError) return e.problems;
    throw e;
  }
  return [];
};

describe("loadDataModel", () => {
  it("loads cubes and views with prefixed members", () => {
    const model = loadDataModel([
      {
        path: "m.yml",
        content: `cubes:
  - name: orders
    sql_table: orders
    joins: [{ name: users, relationship: many_to_one, sql: "{CUBE}.user_id = {users}.id" }]
    dimensions: [{ name: status, sql: status, type: string }]
    measures: [{ name: count, type: count }]
  - name: users
    sql: "SELECT * FROM app_users"
    dimensions: [{ name: city, sql: city, type: string }]
views:
  - name: shop
    cubes:
      - { join_path: orders, includes: "*" }
      - { join_path: orders.users, prefix: true, includes: [city] }
`,
      },
    ]);
    expect([...model.views.get("shop")!.members.keys()]).toEqual(["status", "count", "users_city"]);
    expect(model.views.get("shop")!.members.get("users_city")).toMatchObject({ cube: "users", member: "city", joinPath: ["orders", "users"] });
  });

  it("reports an unknown member in a view with file and line", () => {
    const problems = problemsOf(`cubes:
  - name: orders
    sql_table: orders
    dimensions: [{ name: status, sql: status, type: string }]
views:
  - name: v
    cubes:
      - join_path: orders
        includes:
          - status
          - nope
`);
    expect(problems).toEqual([
      { file: "model.yml", path: ["views", 0, "cubes", 0, "includes", 1], line: 11, message: 'unknown member "nope" in cube "orders"' },
    ]);
  });

  it.each([
    ["duplicate cube names", `cubes:\n  - { name: a, sql_table: a }\n  - { name: a, sql_table: b }\n`, 'duplicate cube name "a"', 3],
    [
      "duplicate members",
      `cubes:\n  - name: a\n    sql_table: a\n    dimensions:\n      - { name: x, sql: x, type: string }\n      - { name: x, sql: y, type: string }\n`,
      'duplicate member name "x"',
      6,
    ],
    ["bad identifiers", `cubes:\n  - name: 1bad\n    sql_table: a\n`, "must match", 2],
    ["sql and sql_table both set", `cubes:\n  - name: a\n    sql_table: a\n    sql: SELECT 1\n`, "exactly one of sql_table and sql", 2],
    [
      "unknown join targets",
      `cubes:\n  - name: a\n    sql_table: a\n    joins:\n      - { name: ghost, relationship: many_to_one, sql: "{CUBE}.id = {ghost}.id" }\n`,
      'join target "ghost" is not a cube',
      5,
    ],
    ["bad types", `cubes:\n  - name: a\n    sql_table: a\n    dimensions:\n      - { name: x, sql: x, type: text }\n`, "Invalid option", 5],
    [
      "bad relationships",
      `cubes:\n  - name: a\n    sql_table: a\n    joins:\n      - { name: a, relationship: many_to_many, sql: "1=1" }\n`,
      "Invalid option",
      5,
    ],
    [
      "unknown SQL references",
      `cubes:\n  - name: a\n    sql_table: a\n    dimensions:\n      - { name: x, sql: "{nope} + 1", type: number }\n`,
      "unknown reference {nope}",
      5,
    ],
    ["YAML syntax errors", `cubes:\n  - name: a\n   bad: [\n`, "YAML syntax", undefined],
  ])("reports %s", (_label, content, message, line) => {
    const problems = problemsOf(content);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]!.message).toContain(message);
    if (line !== undefined) expect(problems[0]!.line).toBe(line);
  });

  it("refuses a YAML alias bomb as a problem of the file, not a crash", () => {
    // Twelve levels of nine aliases each would expand to 9^12 items.
    const lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
    for (let i = 1; i < 12; i++) {
      const name = String.fromCharCode(97 + i);
      lines.push(
        `${name}: &${name} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(", ")}]`,
      );
    }
    lines.push("cubes: *l");
    let error: unknown;
    try {
      loadDataModel([{ path: "bomb.yml", content: lines.join("\n") }]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DataModelError);
    expect((error as DataModelError).problems).toEqual([expect.objectContaining({ file: "bomb.yml", message: expect.stringMatching(/alias/i) })]);
  });

  it("refuses YAML nested past the parser's stack as a problem of the file", () => {
    const deep = `cubes: ${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    expect(() => loadDataModel([{ path: "deep.yml", content: deep }])).toThrow(DataModelError);
  });

  it("reports join cycles", () => {
    const problems = problemsOf(`cubes:
  - name: a
    sql_table: a
    joins: [{ name: b, relationship: many_to_one, sql: "{CUBE}.b = {b}.id" }]
  - name: b
    sql_table: b
    joins: [{ name: a, relationship: one_to_many, sql: "{CUBE}.id = {a}.b" }]
`);
    expect(problems.map((p) => p.message)).toEqual(["join cycle: a → b → a"]);
  });

  it("reports view and policy problems across files", () => {
    const problems = problemsOf(
      `cubes:
  - name: a
    sql_table: a
    dimensions: [{ name: x, sql: x, type: string }]
    access_policy:
      - group: "*"
        row_level:
          filters: [{ member: missing, operator: equals, values: ["{ securityContext.embedTenant }"] }]
      - row_level: { allow_all: true }
`,
      [{ path: "views.yml", content: `views:\n  - name: v\n    cubes:\n      - { join_path: a.nowhere }\n` }],
    );
    expect(problems.map((p) => `${p.file}: ${p.message}`)).toEqual([
      'model.yml: a policy needs `group` ("*" for everyone) or `role`',
      'views.yml: unknown cube "a" in join_path',
    ]);
    const second = problemsOf(
      `cubes:
  - name: a
    sql_table: a
    dimensions: [{ name: x, sql: x, type: string }]
    access_policy:
      - group: "*"
        row_level:
          filters: [{ member: missing, operator: equals, values: ["{ securityContext.embedTenant }"] }]
`,
      [{ path: "views.yml", content: `views:\n  - name: v\n    cubes:\n      - { join_path: a.nowhere }\n` }],
    );
    expect(second.map((p) => `${p.file}:${p.line} ${p.message}`)).toEqual([
      'model.yml:8 policy filter member "missing" is not a dimension here',
      'views.yml:4 cube "a" has no join "nowhere"',
    ]);
  });
});
