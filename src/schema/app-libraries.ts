/**
 * Libraries a dashboard app may name in `manifest.dependencies`. The platform serves each from
 * its own installation at `/embed/app-libs/<file>`; a name not listed here is refused (apps
 * never load code from the internet). Each entry lists the scripts to load, in order, as
 * browser globals (`vega`, `vegaLite`, `vegaEmbed`).
 */
export interface AppLibraryFile {
  /** Served as /embed/app-libs/<file>. */
  file: string;
  /** The npm package and the file inside it. */
  packageName: string;
  path: string;
}

const vega: AppLibraryFile = { file: "vega.min.js", packageName: "vega", path: "build/vega.min.js" };
const vegaLite: AppLibraryFile = { file: "vega-lite.min.js", packageName: "vega-lite", path: "build/vega-lite.min.js" };
const vegaEmbed: AppLibraryFile = { file: "vega-embed.min.js", packageName: "vega-embed", path: "build/vega-embed.min.js" };

export const APP_LIBRARIES: Readonly<Record<string, readonly AppLibraryFile[]>> = {
  vega: [vega],
  "vega-lite": [vega, vegaLite],
  "vega-embed": [vega, vegaLite, vegaEmbed],
};

export const APP_LIBRARY_PATH = "/embed/app-libs/";

/** The script files for an app's dependencies, each once and in load order, and the names that are not served. */
export function resolveAppDependencies(dependencies: Readonly<Record<string, string>> | null | undefined): { files: string[]; unknown: string[] } {
  const files: string[] = [];
  const unknown: string[] = [];
  for (const name of Object.keys(dependencies ?? {})) {
    const libs = Object.prototype.hasOwnProperty.call(APP_LIBRARIES, name) ? APP_LIBRARIES[name] : undefined;
    if (!libs) {
      unknown.push(name);
      continue;
    }
    for (const lib of libs) if (!files.includes(lib.file)) files.push(lib.file);
  }
  return { files, unknown };
}
