import { ESLint } from "eslint";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The layer rules of eslint.config.js, checked on imports written into files of the target
 * layout (most of these files do not exist: ESLint lints the text as if it were there). Every
 * imported path does exist, since a rule judges where an import resolves to.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const eslint = new ESLint({ cwd: root });
const run = promisify(execFile);

async function findings(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${file}` });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

const refused = [
  ["src/protocol/x.ts", 'import "../schema/common";', "the protocol importing the schema"],
  ["src/protocol/x.ts", 'import "zod";', "the protocol importing a package"],
  ["src/protocol/x.ts", 'import "node:fs";', "the protocol importing a Node built-in"],
  ["src/host/x.ts", 'import "../embed/bridge";', "the host kit importing the embed"],
  ["src/host/x.ts", 'import "../schema/common";', "the host kit importing the schema"],
  ["src/schema/x.ts", 'import "../server/config";', "the schema importing the server"],
  ["src/schema/x.ts", 'import "../client";', "the schema importing the client"],
  ["src/client/x.ts", 'import "../embed/bridge";', "the client importing the embed"],
  ["src/server/x.ts", 'import "../embed/bridge";', "the server importing the embed"],
  ["src/embed/x.ts", 'import "../server/config";', "the embed importing the server"],
  ["src/embed/surfaces/chat/x.tsx", 'import "../dashboard/dashboard-data";', "a surface importing another surface"],
  ["src/embed/grid/x.tsx", 'import "../surfaces/dashboard/dashboard-data";', "the grid importing a surface"],
  ["src/embed/ui/x.tsx", 'import "../surfaces/surface-events";', "ui importing the surfaces' shared file"],
  ["src/embed/widgets/chart/x.tsx", 'import "../../surfaces/dashboard/dashboard-data";', "a widget importing a surface"],
  ["src/server/modules/reports/service.ts", 'import "hono";', "a module's service importing Hono"],
  ["src/server/modules/reports/service.ts", 'import "@hono/zod-openapi";', "a module's service importing @hono/*"],
  ["src/server/modules/reports/service.ts", 'import "../../http/on-error";', "a module's service importing http/"],
  ["src/server/context.ts", 'import "./http/on-error";', "context.ts importing http/"],
  ["src/server/context.ts", 'import "./app";', "context.ts importing the app"],
] as const;

const allowed = [
  ["src/host/x.ts", 'import "../protocol";', "the host kit importing the protocol"],
  ["src/embed/x.ts", 'import "../protocol"; import "../schema/common"; import "../client";', "the embed importing protocol, schema and client"],
  ["src/server/x.ts", 'import "../schema/common";', "the server importing the schema"],
  ["src/embed/surfaces/chat/x.tsx", 'import "../surface-events";', "a surface importing a file beside the surface folders"],
  ["src/embed/surfaces/dashboard/x.tsx", 'import "./dashboard-data";', "a surface importing its own files"],
  ["src/server/modules/reports/routes.ts", 'import "hono"; import "../../http/errors";', "a module's routes importing Hono and http/"],
  ["src/server/modules/reports/service.test.ts", 'import "hono";', "a service's test importing Hono"],
  ["src/protocol/x.test.ts", 'import "../server/config"; import "node:fs";', "a test reaching across the layers"],
] as const;

describe("eslint.config.js layer rules", () => {
  it.each(refused)("refuses %s: %s (%s)", async (file, code) => {
    expect(await findings(file, `${code}\n`)).toContain(code.includes("node:") ? "import-x/no-nodejs-modules" : "import-x/no-restricted-paths");
  });

  it.each(allowed)("allows %s: %s (%s)", async (file, code) => {
    expect(await findings(file, `${code}\n`)).toEqual([]);
  });

  it("leaves import cycles to the cycle check", async () => {
    expect(await findings("src/schema/common.ts", 'import type { Workbook } from "./workbook";\nexport type W = Workbook;\n')).toEqual([]);
  });
});

/** The cycle check's probes: each a folder of files whose imports may close a cycle. */
const PROBES = {
  dynamic: { "a.ts": 'import { b } from "./b";\nexport const a = () => b;\n', "b.ts": 'export const b = () => import("./a");\n' },
  typeOnly: {
    "c.ts": 'import type { D } from "./d";\nexport const c = 1;\nexport type C = D | number;\n',
    "d.ts": 'import { type C } from "./c";\nexport const d = 2;\nexport type D = C | string;\n',
  },
  // A value one way, types back.
  mixed: {
    "g.ts": 'import { h } from "./h";\nexport const g = () => h;\nexport type G = number;\n',
    "h.ts": 'import type { G } from "./g";\nexport const h = 1;\nexport type H = G;\n',
  },
  unsaid: {
    "e.ts": 'import { F } from "./f";\nexport const e = 1;\nexport type E = F | number;\n',
    "f.ts": 'import { e } from "./e";\nexport const f = () => e;\nexport type F = string;\n',
  },
} satisfies Record<string, Record<string, string>>;

describe(".dependency-cruiser.mjs import cycles", () => {
  /**
   * The cycle check's violations by probe, from one run over a probe folder written with every
   * probe in a folder of its own (real files: it resolves on disk).
   */
  let byProbe: Record<string, string[]>;
  beforeAll(async () => {
    const dir = mkdtempSync(`${root}/src/schema/.cycle-probe-`);
    try {
      for (const [probe, files] of Object.entries(PROBES)) {
        mkdirSync(`${dir}/${probe}`);
        for (const [name, text] of Object.entries(files)) writeFileSync(`${dir}/${probe}/${name}`, text);
      }
      const { stdout } = await run(
        path.join(root, "node_modules", ".bin", "depcruise"),
        ["--config", ".dependency-cruiser.mjs", "--output-type", "json", path.relative(root, dir)],
        {
          cwd: root,
        },
      ).catch((e: { stdout: string }) => e);
      const result = JSON.parse(stdout) as { summary: { violations: { rule: { name: string }; from: string; cycle?: { name: string }[] }[] } };
      byProbe = Object.fromEntries(Object.keys(PROBES).map((probe) => [probe, [] as string[]]));
      for (const v of result.summary.violations) {
        const probe = path.basename(path.dirname(v.from));
        byProbe[probe]?.push(`${v.rule.name}: ${(v.cycle ?? []).map((c) => path.basename(c.name)).join(" → ")}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses a cycle, a dynamic import included", () => {
    expect(byProbe.dynamic!.length).toBeGreaterThan(0);
    expect(byProbe.dynamic!.every((f) => f.startsWith("no-circular:"))).toBe(true);
  });

  it("lets type-only imports close a cycle (they are erased), a value one way and types back as well", () => {
    expect(byProbe.typeOnly).toEqual([]);
    expect(byProbe.mixed).toEqual([]);
  });

  it("counts an import of types that does not say so: only `import type` and `{ type X }` are left out", () => {
    expect(byProbe.unsaid).toEqual(["no-circular: f.ts → e.ts"]);
  });
});
