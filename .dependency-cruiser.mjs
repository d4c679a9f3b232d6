// Import cycles, checked by dependency-cruiser (`npm run lint:cycles`, part of `npm run lint`
// and of `npm test`). A cycle counts when its imports survive compilation: type-only imports
// (`import type`, `{ type X }`) are erased and do not count; a dynamic import does. Test files
// and specs are left out: nothing imports them, so no cycle can pass through one.
// scripts/import-boundaries.test.ts holds the bridge free of cycles with type-only imports too.
export default {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules that import each other (through any chain) load in an order that depends on who imports first.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(\\.test\\.tsx?$|\\.spec\\.ts$|^src/client/generated/)" },
    // Read the compiled output, as Node and Vite run it: what the compiler erases is not an import.
    tsPreCompilationDeps: false,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
  },
};
