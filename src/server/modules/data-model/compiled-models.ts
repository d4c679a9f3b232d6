import { createHash } from "node:crypto";
import { loadDataModel, type DataModel, type DataModelFile } from "../../semantic";

/** Compiled models kept per node, least recently used dropped first. */
const MAX_MODELS = 16;
const models = new Map<string, DataModel>();

/**
 * `loadDataModel` with a memory of the last models compiled on this node, keyed by the files'
 * paths and contents in order: a merge validates the model once and the production engine
 * rebuilt right after reuses it (compiling hundreds of files is the bulk of a merge's time).
 * Errors are not kept. A model is read-only once compiled, so engines may share it.
 */
export function compileModel(files: DataModelFile[]): DataModel {
  const hash = createHash("sha256");
  for (const f of files) hash.update(`${f.path.length}:${f.path}${Buffer.byteLength(f.content)}:`).update(f.content);
  const key = hash.digest("hex");
  const cached = models.get(key);
  if (cached) {
    models.delete(key);
    models.set(key, cached);
    return cached;
  }
  const model = loadDataModel(files);
  models.set(key, model);
  if (models.size > MAX_MODELS) models.delete(models.keys().next().value!);
  return model;
}
