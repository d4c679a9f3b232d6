import type { WorkbookCalculatedFields } from "../../../schema/calculated-field";
import { resolveCalculatedFields } from "../compiler/calculated-fields";
import type { DataModel } from "../data-model";
import type { QueryProblem } from "../errors";

/**
 * Checks a workbook's calculated fields against a deployment's model as a query would check
 * them: each key `<view>.<name>` names a public view (or cube) and a name that is not a member
 * of it, and each formula parses and type-checks over that view's members. Problems carry the
 * path `["calculatedFields", key, …]`; none means every field would compile.
 */
export function checkWorkbookCalculatedFields(model: DataModel, fields: WorkbookCalculatedFields): QueryProblem[] {
  const problems: QueryProblem[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const dot = key.indexOf(".");
    const head = key.slice(0, dot);
    const source = model.views.get(head) ?? model.cubes.get(head);
    if (!source?.public) {
      problems.push({ path: ["calculatedFields", key], code: "unknown_member", message: `"${head}" is not a view or cube of the model` });
      continue;
    }
    resolveCalculatedFields(model, [{ name: key.slice(dot + 1), ...field }], [key], (path, code, message) =>
      problems.push({ path: ["calculatedFields", key, ...path.slice(2).filter((p) => p !== "name")], code, message }),
    );
  }
  return problems;
}
