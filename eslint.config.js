// ESLint for the whole package: typescript-eslint's recommended rules and the import rules of
// the architecture (shared/design/ARCHITECTURE.md) as restricted paths. Import cycles are
// refused by dependency-cruiser (.dependency-cruiser.mjs), which reads the module graph once
// where import-x/no-cycle walked it again for every file (three quarters of the lint's time).
// `npm run lint` runs it with the cycle check and Prettier's check; `npm test` runs all three beside the type check.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = path.dirname(fileURLToPath(import.meta.url));
const abs = (rel) => path.join(root, rel);

const TESTS = ["**/*.test.ts", "**/*.test.tsx"];

// Surfaces named by the architecture, and any surface folder that exists by now.
const surfacesDir = abs("src/embed/surfaces");
const surfaces = [
  ...new Set([
    "dashboard",
    "app",
    "chat",
    ...(existsSync(surfacesDir)
      ? readdirSync(surfacesDir, { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => d.name)
      : []),
  ]),
].sort();

/**
 * The layer rules, one zone each. Paths are folders (everything below them) unless they are globs;
 * globs are absolute because import-x matches a glob's exceptions against absolute paths.
 * Folders that do not exist yet (modules/, context.ts, shell/, ui/, grid/) apply as they appear.
 */
const zones = [
  {
    target: "./src/protocol",
    from: ["./src", "./node_modules"],
    except: ["./protocol"],
    message: "src/protocol is the wire contract: it imports nothing outside itself.",
  },
  {
    target: "./src/host",
    from: ["./src", "./node_modules"],
    except: ["./host", "./protocol"],
    message: "The host kit depends on src/protocol only.",
  },
  {
    target: ["./src/schema", "./src/client"],
    from: ["./src/server", "./src/embed"],
    message: "Schema and client are shared by the server and the embed: they never import either.",
  },
  {
    target: "./src/schema",
    from: ["./src/client", "./src/protocol", "./src/host", "./src/cli"],
    message: "src/schema is the single definition of the resources: the others import it, not the other way round.",
  },
  { target: "./src/server", from: "./src/embed", message: "The server never imports the embed." },
  { target: "./src/embed", from: ["./src/server", "./src/cli"], message: "The embed never imports the server (nor the CLI)." },
  { target: "./src/cli", from: "./src/embed", message: "The CLI runs in Node: it never imports the embed." },
  ...surfaces.map((surface) => ({
    target: `./src/embed/surfaces/${surface}`,
    from: [abs("src/embed/surfaces/*/**/*")],
    except: [abs(`src/embed/surfaces/${surface}/**/*`)],
    message: "No surface imports another surface: move what they share beside the surface folders or into ui/, grid/ or widgets/.",
  })),
  {
    target: ["./src/embed/grid", "./src/embed/ui", "./src/embed/widgets"],
    from: "./src/embed/surfaces",
    message: "grid/, ui/ and widgets/ are shared by the surfaces: they never import a surface.",
  },
  {
    target: [abs("src/server/modules/*/service.ts"), abs("src/server/modules/*/service/**/*")],
    from: ["./src/server/http", "./node_modules/hono", "./node_modules/@hono"],
    message: "A module's service holds the domain rules without HTTP: no http/, no Hono (routes.ts does that).",
  },
  {
    // It may name the types of the long-lived services it carries (modules' leaf services);
    // the cycle check (.dependency-cruiser.mjs) makes sure none of them imports it back.
    target: "./src/server/context.ts",
    from: ["./src/server/http", "./src/server/app.ts", "./src/server/main.ts", "./src/server/platform.ts"],
    message: "context.ts is imported by everything and imports nothing back.",
  },
];

export default defineConfig(
  {
    ignores: ["dist/**", "src/client/generated/**", "test-results/**", "playwright-report/**", ".data/**", "coverage/**"],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  js.configs.recommended,
  // Syntax-only rules: the type-aware set (recommendedTypeChecked) makes the lint three times
  // slower (about a minute on two cores), and mostly reports `any` from parsed JSON in tests.
  tseslint.configs.recommended,
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: globals.node },
  },
  {
    rules: {
      // `_name` marks a binding kept on purpose: a parameter of a fixed signature, or a field
      // taken out of an object with a rest sibling (`const { id: _id, ...rest } = row`).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The two classic hook rules. The React Compiler rules of the plugin's recommended set are
    // left out: nothing here is compiled by it, and they reject the latest-value ref pattern.
    // Only where React is imported (the embed and the client's React bindings): elsewhere the
    // rule only walked every function of the server for nothing (a quarter of the rules' time).
    files: ["src/embed/**/*.{ts,tsx}", "src/client/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    plugins: { "import-x": importX },
    settings: {
      // The node resolver with TypeScript extensions: imports are relative or packages (no path aliases).
      "import-x/resolver-next": [importX.createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".mjs"] })],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      // Resolutions kept for the whole run (the default forgets them after 30 s, mid-lint).
      "import-x/cache": { lifetime: Infinity },
    },
  },
  {
    // Tests may reach across the layers (an API test drives the real server), as
    // scripts/import-boundaries.test.ts allows; shipped code may not.
    ignores: TESTS,
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: root, zones }],
    },
  },
  {
    // Both run in the browser (the protocol in any host page): no Node built-ins.
    files: ["src/protocol/**", "src/host/**"],
    ignores: TESTS,
    rules: { "import-x/no-nodejs-modules": "error" },
  },
);
