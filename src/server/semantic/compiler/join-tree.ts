import { SQL_REFERENCE, type Cube, type DataModel, type Dimension, type Measure, type View } from "../data-model";
import type { QueryProblem } from "../errors";
import type { ResolvedMember } from "../member-resolution";

/** Cubes a query reads, as a tree of LEFT JOINs from one root. */
export interface JoinTree {
  root: string;
  /** Cubes in join order (parents before children). */
  order: string[];
  parent: Map<string, string>;
}

/** The join tree of a view query: the view's join paths, starting as deep as the members allow. */
export function viewJoinTree(view: View, members: ResolvedMember[]): JoinTree {
  const paths = members.map((m) => m.joinPath ?? [m.cube.name]);
  // Start from the deepest cube all members share: a query about customers alone does not
  // need to go through orders.
  let common = paths[0] ?? [view.rootCube];
  for (const p of paths) {
    let i = 0;
    while (i < common.length && i < p.length && common[i] === p[i]) i++;
    common = common.slice(0, i);
  }
  if (common.length === 0) common = [view.rootCube];
  const root = common[common.length - 1]!;
  const parent = new Map<string, string>();
  const order = [root];
  for (const p of paths) {
    for (let i = common.length; i < p.length; i++) {
      if (!parent.has(p[i]!) && p[i] !== root) {
        parent.set(p[i]!, p[i - 1]!);
        order.push(p[i]!);
      }
    }
  }
  return { root, order, parent };
}

/**
 * The join tree of a cube query: the first cube named (in member order) from which every other
 * one is reachable along declared joins; undefined, with a problem pushed, when none is.
 */
export function cubeJoinTree(model: DataModel, members: ResolvedMember[], problems: QueryProblem[]): JoinTree | undefined {
  const needed: string[] = [];
  for (const m of members) if (!needed.includes(m.cube.name)) needed.push(m.cube.name);
  for (const root of needed) {
    const parent = new Map<string, string>();
    const seen = new Set([root]);
    const queue = [root];
    while (queue.length) {
      const c = queue.shift()!;
      for (const target of model.cubes.get(c)!.joins.keys()) {
        if (seen.has(target) || !model.cubes.has(target)) continue;
        seen.add(target);
        parent.set(target, c);
        queue.push(target);
      }
    }
    if (!needed.every((n) => seen.has(n))) continue;
    const inTree = new Set<string>([root]);
    for (const n of needed) for (let c: string | undefined = n; c && !inTree.has(c); c = parent.get(c)) inTree.add(c);
    // Parents before children: sort by depth.
    const depth = (c: string): number => (c === root ? 0 : 1 + depth(parent.get(c)!));
    const order = [...inTree].sort((a, b) => depth(a) - depth(b));
    return { root, order, parent: new Map([...parent].filter(([k]) => inTree.has(k))) };
  }
  problems.push({ path: [], code: "unjoinable_members", message: `no join path connects cubes ${needed.join(", ")}` });
  return undefined;
}

/** Whether some join of the tree repeats the rows of `cube` (a to-many join seen from it). */
export function isMultiplied(model: DataModel, tree: JoinTree, cube: string): boolean {
  const inSubtree = (node: string, top: string) => {
    for (let c: string | undefined = node; c; c = tree.parent.get(c)) if (c === top) return true;
    return false;
  };
  for (const child of tree.order) {
    if (child === tree.root) continue;
    const rel = model.cubes.get(tree.parent.get(child)!)!.joins.get(child)!.relationship;
    const below = inSubtree(cube, child);
    if (rel === "many_to_one" && below) return true;
    if (rel === "one_to_many" && !below) return true;
  }
  return false;
}

export function primaryKeyOf(cube: Cube): Dimension | undefined {
  return [...cube.dimensions.values()].find((d) => d.primaryKey);
}

/** Why a measure cannot be computed exactly under fan-out, or undefined if it can. */
export function unsafeUnderFanOut(cube: Cube, m: Measure, depth = 0): string | undefined {
  if (depth > 16) return undefined;
  switch (m.type) {
    case "count":
      return primaryKeyOf(cube) ? undefined : `cube ${cube.name} has no primary_key`;
    case "count_distinct":
    case "min":
    case "max":
      return undefined;
    case "sum":
    case "avg":
      return `${m.type} over repeated rows`;
    case "number": {
      for (const ref of m.sql!.matchAll(SQL_REFERENCE)) {
        const inner = cube.measures.get(ref[1]!);
        const reason = inner && unsafeUnderFanOut(cube, inner, depth + 1);
        if (reason) return reason;
      }
      return /\b(sum|avg)\s*\(/i.test(m.sql!.replace(SQL_REFERENCE, "")) ? "sum/avg over repeated rows" : undefined;
    }
  }
}
