// Import cycles, checked by dependency-cruiser (`npm run lint:cycles`, part of `npm run lint`
// and of `npm test`). A cycle counts when its imports survive compilation: imports that say they
// are types (`import type`, `{ type X }`) are erased and do not count; a dynamic import does. The
// TypeScript sources are read as they are (`tsPreCompilationDeps`), with those type-only imports
// left out of the cycle rule: three times faster than compiling each file first (3.5 s against
// 9.9 s), and an import of types that does not say so counts as the import it is written as.
// Test files and specs are left out: nothing imports them, so no cycle can pass through one.
// scripts/import-boundaries.test.ts holds the bridge free of cycles with type-only imports too.
export default {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules that import each other (through any chain) load in an order that depends on who imports first.",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(\\.test\\.tsx?$|\\.spec\\.ts$|^src/client/generated/)" },
    // The sources as written; the rule above leaves out the imports marked as types.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
  },
};
