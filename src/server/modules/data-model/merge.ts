import { createHash } from "node:crypto";
import { diff3Merge } from "node-diff3";
import type { ModelTree } from "../../db/schema";

/** A file both sides changed in ways that cannot be combined. */
export interface MergeConflict {
  path: string;
  reason: "both_modified" | "modified_and_deleted" | "both_added";
}

/** sha256 of a file's content (UTF-8), hex: the address of a file version. */
export const sha256Of = (content: string | Uint8Array) => createHash("sha256").update(content).digest("hex");

/** The result of merging two trees: the merged tree and the file versions it adds (sha256 → content), or the conflicts. */
export type TreeMerge = { ok: true; tree: ModelTree; created: Map<string, string> } | { ok: false; conflicts: MergeConflict[] };

/**
 * Three-way merge of model trees (path → sha256): a file changed on one side only takes that
 * side; a file changed on both is merged line by line with diff3 (node-diff3), and any
 * overlapping change is a conflict. `content` reads a version's text by its sha256.
 */
export function mergeTrees(base: ModelTree, ours: ModelTree, theirs: ModelTree, content: (sha: string) => string): TreeMerge {
  const tree: ModelTree = {};
  const created = new Map<string, string>();
  const conflicts: MergeConflict[] = [];
  const paths = new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)]);
  for (const path of [...paths].sort()) {
    const b = base[path];
    const o = ours[path];
    const t = theirs[path];
    if (o === t) {
      if (o) tree[path] = o;
    } else if (o === b) {
      if (t) tree[path] = t;
    } else if (t === b) {
      if (o) tree[path] = o;
    } else if (!o || !t) {
      conflicts.push({ path, reason: "modified_and_deleted" });
    } else {
      const merged = mergeText(b ? content(b) : "", content(o), content(t));
      if (merged === null) conflicts.push({ path, reason: b ? "both_modified" : "both_added" });
      else {
        const sha = sha256Of(merged);
        created.set(sha, merged);
        tree[path] = sha;
      }
    }
  }
  return conflicts.length ? { ok: false, conflicts } : { ok: true, tree, created };
}

/** Line-based three-way merge of one file; null when the two sides overlap. */
export function mergeText(base: string, ours: string, theirs: string): string | null {
  const regions = diff3Merge(ours.split("\n"), base.split("\n"), theirs.split("\n"), { excludeFalseConflicts: true });
  const lines: string[] = [];
  for (const r of regions) {
    if (r.conflict) return null;
    lines.push(...r.ok!);
  }
  return lines.join("\n");
}
