// @ts-check
/**
 * A gzip and a brotli form beside every compressible asset of a build, which the platform
 * serves to browsers that accept them (serveStatic `precompressed`): the embed's code travels at
 * about a third of its size without compressing it per request. Each form is written under a
 * temporary name and renamed, so a server reading the folder meanwhile never sends half a file.
 *
 * Brotli at its best quality is most of a build's time (about 9 s of CPU for the embed): the
 * files are compressed side by side on libuv's thread pool. `npm start` builds with the brotli
 * forms left for later and runs this file once the platform is up (`node
 * scripts/compress-assets.mjs dist/embed/assets`), at the lowest priority: until then the
 * platform sends gzip.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * @param {string} file
 * @param {Buffer} content
 */
async function writeAtomically(file, content) {
  const partial = `${file}.${randomBytes(4).toString("hex")}.partial`;
  await writeFile(partial, content);
  await rename(partial, file);
}

/** @param {string} name */
const compressible = (name) => /\.(js|css|json|svg)$/.test(name);

/**
 * Whether a compressible asset of at least 1 KiB in `dir` has no brotli form yet.
 * @param {string} dir
 */
export function missingBrotli(dir) {
  let names;
  try {
    names = new Set(readdirSync(dir));
  } catch {
    return false;
  }
  return [...names].some((name) => compressible(name) && !names.has(name + ".br") && statSync(path.join(dir, name)).size >= 1024);
}

/**
 * Writes the compressed forms of every JS, CSS, JSON and SVG file of at least 1 KiB in `dir`.
 * @param {string} dir
 * @param {{ gzip?: boolean, brotli?: boolean }} [forms]
 */
export async function compressAssets(dir, forms = { gzip: true, brotli: true }) {
  /** @type {Promise<void>[]} */
  const jobs = [];
  for (const name of readdirSync(dir)) {
    if (!compressible(name)) continue;
    const file = path.join(dir, name);
    const content = readFileSync(file);
    if (content.length < 1024) continue;
    if (forms.gzip) jobs.push(gzipAsync(content, { level: 9 }).then((out) => writeAtomically(file + ".gz", out)));
    if (forms.brotli) {
      const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length };
      jobs.push(brotliAsync(content, { params }).then((out) => writeAtomically(file + ".br", out)));
    }
  }
  await Promise.all(jobs);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write("usage: node scripts/compress-assets.mjs <assets folder> [--brotli-only]\n");
    process.exit(2);
  }
  const brotliOnly = process.argv.includes("--brotli-only");
  await compressAssets(dir, { gzip: !brotliOnly, brotli: true });
}
