import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The one-way import rules of the architecture: protocol ← host, protocol ← embed,
 * schema ← server | client | embed, client ← embed; the server never imports the embed,
 * the embed never imports the server, no surface imports another surface.
 */
const root = fileURLToPath(new URL("../src", import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
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
    const bad = all.filter((f) => area(f.rel) === "host").flatMap((f) => f.imports.filter((i) => !["host", "protocol"].includes(area(i))).map((i) => `${f.rel} → ${i}`));
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

  it("finds the imports it checks", () => {
    // Guards the checker itself: the server's app does import its routes.
    expect(all.find((f) => f.rel === path.join("server", "app.ts"))!.imports).toContain(path.join("server", "modules"));
  });
});
