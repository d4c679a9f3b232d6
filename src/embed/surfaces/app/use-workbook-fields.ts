/**
 * A calculated field made in a report is also recorded in its workbook's `calculatedFields`
 * (spec 2.2: the fields the workbook's reports may use, keyed `<view>.<name>`): the workbook's
 * current fields are read, the field put in under its key, and the whole map written back (the
 * API checks each formula against the model). The report keeps the field in its own query either
 * way; a failure is told and changes nothing else.
 */
import type { CalculatedField } from "../../../schema/calculated-field";
import { messageOf, useApp } from "./app-context";
import { useAppText } from "./app-messages";

export function useWorkbookFieldRecorder(workbookId: number | null) {
  const { api, notify } = useApp();
  const text = useAppText();
  return (view: string, field: CalculatedField, replaces?: string) => {
    if (workbookId === null) return;
    void (async () => {
      try {
        const current = (await api.workbook(workbookId)).calculatedFields ?? {};
        const { name, ...definition } = field;
        const next = Object.fromEntries(Object.entries(current).filter(([key]) => replaces === undefined || key !== `${view}.${replaces}`));
        next[`${view}.${name}`] = definition;
        await api.saveCalculatedFields(workbookId, next);
      } catch (error) {
        notify("error", text("formulaWorkbookFailed", { message: messageOf(error) }));
      }
    })();
  };
}
