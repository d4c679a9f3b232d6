/**
 * A calculated field made in a report is also recorded in its workbook's `calculatedFields`
 * (spec 2.2: the fields the workbook's reports may use, keyed `<view>.<name>`): one update with
 * `calculatedFieldChanges` sets the field under its key (and removes the key it replaces), and the
 * platform applies it to the stored fields in the same write, so a field another creator adds
 * meanwhile is kept (the API checks the formula against the model). The report keeps the field in
 * its own query either way; a failure is told and changes nothing else.
 */
import type { CalculatedField } from "../../../schema/calculated-field";
import { messageOf, useApp } from "./app-context";
import { useAppText } from "./app-messages";

export function useWorkbookFieldRecorder(workbookId: number | null) {
  const { api, notify } = useApp();
  const text = useAppText();
  return (view: string, field: CalculatedField, replaces?: string) => {
    if (workbookId === null) return;
    const { name, ...definition } = field;
    const key = `${view}.${name}`;
    const remove = replaces !== undefined && `${view}.${replaces}` !== key ? [`${view}.${replaces}`] : [];
    api.changeCalculatedFields(workbookId, { set: { [key]: definition }, ...(remove.length ? { remove } : {}) }).catch((error: unknown) => {
      notify("error", text("formulaWorkbookFailed", { message: messageOf(error) }));
    });
  };
}
