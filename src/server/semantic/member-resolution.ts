import { joinTitles, type Cube, type DataModel, type Dimension, type Measure, type View } from "./data-model";

/** A member named in a query, traced back to the cube that defines it. */
export interface ResolvedMember {
  /** Fully-qualified name as written in the query: `<view_or_cube>.<member>`. */
  name: string;
  kind: "dimension" | "measure";
  /** The view or cube the name starts with. */
  source: Cube | View;
  cube: Cube;
  def: Dimension | Measure;
  /** For view members: cube names from the view's root to `cube`. */
  joinPath?: string[];
  title: string;
  shortTitle: string;
}

/** Looks up `<view_or_cube>.<member>`; undefined when it does not exist. */
export function resolveMember(model: DataModel, name: string): ResolvedMember | undefined {
  const dot = name.indexOf(".");
  if (dot <= 0 || name.indexOf(".", dot + 1) !== -1) return undefined;
  const head = name.slice(0, dot);
  const tail = name.slice(dot + 1);
  const view = model.views.get(head);
  if (view) {
    const vm = view.members.get(tail);
    if (!vm) return undefined;
    const cube = model.cubes.get(vm.cube)!;
    const def = vm.kind === "dimension" ? cube.dimensions.get(vm.member)! : cube.measures.get(vm.member)!;
    return {
      name,
      kind: vm.kind,
      source: view,
      cube,
      def,
      joinPath: vm.joinPath,
      title: joinTitles(view.title, vm.title),
      shortTitle: vm.shortTitle,
    };
  }
  const cube = model.cubes.get(head);
  if (!cube) return undefined;
  const def = cube.dimensions.get(tail) ?? cube.measures.get(tail);
  if (!def) return undefined;
  return { name, kind: def.kind, source: cube, cube, def, title: joinTitles(cube.title, def.title), shortTitle: def.title };
}
