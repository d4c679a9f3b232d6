import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The one-way import rules of the architecture: protocol ← host, protocol ← embed,
 * schema ← server | client | embed, client ← embed; the server never imports the embed,
 * the embed never imports the server, no surface imports another surface, and what the
 * surfaces share (embed/grid, embed/ui, embed/widgets) never imports a surface.
 */
const root = fileURLToPath(new URL("../src", import.meta.url));

/**
 * The source files under `dir`. Hidden folders are not sources: the lint rules' test writes its
 * probe modules into one (`src/schema/.cycle-probe-*`) and removes it while this file may be
 * reading the tree in another worker.
 */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith(".")) return [];
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
    const spec = m[1] ?? m[2]!;
    if (spec.startsWith(".")) out.push(path.relative(root, path.resolve(path.dirname(file), spec)));
  }
  return out;
}

const area = (rel: string) => rel.split(path.sep)[0]!;

describe("import boundaries", () => {
  // Tests may reach across (an API test drives the real server); shipped code may not.
  const all = files(root)
    .filter((f) => !/\.test\.tsx?$/.test(f))
    .map((f) => ({ rel: path.relative(root, f), imports: importsOf(f) }));

  it("keeps src/protocol free of imports from outside it", () => {
    const bad = all.filter((f) => area(f.rel) === "protocol").flatMap((f) => f.imports.filter((i) => area(i) !== "protocol").map((i) => `${f.rel} → ${i}`));
    expect(bad).toEqual([]);
  });

  it("lets the host kit import only the protocol", () => {
    const bad = all
      .filter((f) => area(f.rel) === "host")
      .flatMap((f) => f.imports.filter((i) => !["host", "protocol"].includes(area(i))).map((i) => `${f.rel} → ${i}`));
    expect(bad).toEqual([]);
  });

  it("keeps the server and the embed apart", () => {
    const bad = all.flatMap((f) =>
      f.imports
        .filter((i) => (area(f.rel) === "server" && area(i) === "embed") || (area(f.rel) === "embed" && area(i) === "server"))
        .map((i) => `${f.rel} → ${i}`),
    );
    expect(bad).toEqual([]);
  });

  it("keeps schema and client free of server and embed code", () => {
    const bad = all
      .filter((f) => ["schema", "client"].includes(area(f.rel)))
      .flatMap((f) => f.imports.filter((i) => ["server", "embed"].includes(area(i))).map((i) => `${f.rel} → ${i}`));
    expect(bad).toEqual([]);
  });

  it("keeps surfaces from importing each other", () => {
    const surfaceOf = (rel: string) => {
      const parts = rel.split(path.sep);
      // A surface is a folder under embed/surfaces; files beside the folders are shared.
      return parts[0] === "embed" && parts[1] === "surfaces" && parts.length > 3 ? parts[2] : null;
    };
    const bad = all.flatMap((f) => {
      const s = surfaceOf(f.rel);
      return s ? f.imports.filter((i) => surfaceOf(i) && surfaceOf(i) !== s).map((i) => `${f.rel} → ${i}`) : [];
    });
    expect(bad).toEqual([]);
  });

  const inEmbed = (rel: string, folder: string) => rel.startsWith(path.join("embed", folder) + path.sep);
  const importsOfSurfaces = (folder: string) =>
    all.filter((f) => inEmbed(f.rel, folder)).flatMap((f) => f.imports.filter((i) => inEmbed(i, "surfaces")).map((i) => `${f.rel} → ${i}`));

  it("keeps the grid and the shared ui from importing the surfaces", () => {
    // A dashboard editor in the app surface renders widgets through the same grid and WidgetHost.
    expect([...importsOfSurfaces("grid"), ...importsOfSurfaces("ui")]).toEqual([]);
  });

  it("keeps the widgets from importing the surfaces", () => {
    expect(importsOfSurfaces("widgets")).toEqual([]);
  });

  it("keeps the bridge free of import cycles, type-only imports included", () => {
    // ESLint's import-x/no-cycle leaves type-only imports out; here they count too.
    const bridge = new Map(all.filter((f) => inEmbed(f.rel, "bridge")).map((f) => [f.rel.replace(/\.tsx?$/, ""), f.imports]));
    const inBridge = (i: string) => (bridge.has(i) ? i : bridge.has(path.join(i, "index")) ? path.join(i, "index") : null);
    const cycles: string[] = [];
    const visit = (module: string, trail: string[]) => {
      for (const next of bridge.get(module)!.map(inBridge)) {
        if (next === null) continue;
        if (trail.includes(next)) cycles.push([...trail.slice(trail.indexOf(next)), next].join(" → "));
        else visit(next, [...trail, next]);
      }
    };
    for (const module of bridge.keys()) visit(module, [module]);
    expect(cycles).toEqual([]);
  });

  it("finds the imports it checks", () => {
    // Guards the checker itself: the server's app does import its routes.
    expect(all.find((f) => f.rel === path.join("server", "app.ts"))!.imports).toContain(path.join("server", "modules"));
  });
});

describe("optional drivers", () => {
  /**
   * Packages only some installations use (a MySQL source, SMTP, a model server, Redis, DuckDB's
   * native addon) are imported where first used, so the server bundle does not evaluate them on
   * every start (docs/benchmarks.md, "Start-up"). Test data and fixtures may import them.
   */
  const OPTIONAL = ["mysql2", "mysql2/promise", "nodemailer", "openai", "ioredis", "@duckdb/node-api"];
  const FIXTURES = [path.join("server", "modules", "query", "query-test-data.ts"), path.join("server", "semantic", "test-support")];

  it("imports them on first use only, never as a value at the top of a shipped server module", () => {
    const bad = files(path.join(root, "server"))
      .filter((f) => !/\.test\.tsx?$/.test(f) && !FIXTURES.some((x) => path.relative(root, f).startsWith(x)))
      .flatMap((f) =>
        [...readFileSync(f, "utf8").matchAll(/^import\s+(?!type\b)[^;]*?from\s+["']([^"']+)["']/gm)]
          .filter((m) => OPTIONAL.includes(m[1]!))
          .map((m) => `${path.relative(root, f)} → ${m[1]}`),
      );
    expect(bad).toEqual([]);
  });
});
