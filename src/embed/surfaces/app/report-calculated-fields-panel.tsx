/**
 * The report builder's calculated fields: each with its formula, Edit and Remove, and
 * "+ Calculated field", which opens the formula editor (report-formula-editor.tsx). A field
 * added is a column of the report (a measure among the measures, a dimension among the
 * breakouts), is saved with the report's query (`calculatedFields`) and is recorded in the
 * workbook's `calculatedFields` (use-workbook-fields.ts). A field whose formula no
 * longer checks is marked and left out of the query (`runnableCalculatedFieldsOf`).
 */
import { useState } from "react";
import type { CalculatedField } from "../../../schema/calculated-field";
import type { SemanticQuery } from "../../shell/platform-api";
import type { MetaSource } from "./app-api";
import { useAppText } from "./app-messages";
import { checkFormulaText, putCalculatedField, removeCalculatedField } from "./report-formula";
import { FormulaEditor } from "./report-formula-editor";
import { useWorkbookFieldRecorder } from "./use-workbook-fields";

export interface CalculatedFieldsPanelProps {
  /** The report's view as the model has it. */
  source: MetaSource | undefined;
  fields: readonly CalculatedField[];
  disabled: boolean;
  editQuery(fn: (q: SemanticQuery) => SemanticQuery): void;
  /** The report's workbook, which records the fields its reports may use (null: none). */
  workbookId: number | null;
}

export function CalculatedFieldsPanel(props: CalculatedFieldsPanelProps) {
  const text = useAppText();
  const { source, fields } = props;
  // null: closed; "new": a new field; else the name of the field edited.
  const [open, setOpen] = useState<string | null>(null);
  const record = useWorkbookFieldRecorder(props.workbookId);
  if (!source) return null;
  const editing = open && open !== "new" ? fields.find((f) => f.name === open) : undefined;
  return (
    <fieldset className="svc-app-fieldset svc-formula-fields" disabled={props.disabled} data-testid="calculated-fields">
      <legend>{text("formulaFields")}</legend>
      {fields.length ? (
        <ul className="svc-formula-field-list">
          {fields.map((f) => (
            <li key={f.name} data-testid="calculated-field" data-name={f.name}>
              <span className="svc-formula-field-title">{f.title ?? f.name}</span>
              <code className="svc-formula-field-formula">{f.formula}</code>
              {checkFormulaText(f.formula, source).ok ? null : (
                <span className="svc-app-filter-note" role="note" data-testid="calculated-field-left-out">
                  {text("formulaLeftOut")}
                </span>
              )}
              <span className="svc-formula-field-actions">
                <button
                  type="button"
                  className="svc-button is-small"
                  onClick={() => setOpen(f.name)}
                  aria-label={text("formulaEditField", { name: f.title ?? f.name })}
                >
                  {text("formulaEdit")}
                </button>
                <button
                  type="button"
                  className="svc-icon-button"
                  onClick={() => props.editQuery((q) => removeCalculatedField(q, source.name, f.name))}
                  aria-label={text("formulaRemoveField", { name: f.title ?? f.name })}
                >
                  ×
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <button type="button" className="svc-button" onClick={() => setOpen("new")} data-testid="add-calculated-field">
        {text("formulaAddField")}
      </button>
      {open !== null ? (
        <FormulaEditor
          source={source}
          fields={fields}
          {...(editing ? { editing } : {})}
          onClose={() => setOpen(null)}
          onSave={(field, kind) => {
            props.editQuery((q) => putCalculatedField(q, source.name, field, kind, editing?.name));
            record(source.name, field, editing?.name);
            setOpen(null);
          }}
        />
      ) : null}
    </fieldset>
  );
}
