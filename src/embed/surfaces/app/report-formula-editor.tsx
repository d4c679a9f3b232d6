/**
 * The formula editor of the report builder (a custom column): a name, a formula over the members
 * of the report's view with completion (report-formula-input.tsx), and under the field the first
 * problem the server's own parser and checker find, pointed at in the formula; or, when it checks,
 * whether the field is a measure or a dimension. Add puts it in the report (`onSave`); Cancel or
 * Escape leaves the report as it was.
 */
import { useId, useRef, useState, type FormEvent } from "react";
import type { CalculatedField } from "../../../schema/calculated-field";
import type { MetaSource } from "./app-api";
import { useEmbedStore } from "../../state/use-embed-store";
import { useAppText, type AppMessageKey } from "./app-messages";
import { Dialog } from "./dialog";
import { checkFormulaText, fieldNameOf, nameProblemOf, type FormulaCheck } from "./report-formula";
import { FormulaInput } from "./report-formula-input";
import { formulaProblemText } from "./report-formula-messages";
import "./report-formula.css";

export interface FormulaEditorProps {
  /** The report's view as the model has it (a formula names its members, not other calculated fields). */
  source: MetaSource;
  /** The report's calculated fields (their names are taken). */
  fields: readonly CalculatedField[];
  /** The field edited, if not a new one. */
  editing?: CalculatedField;
  onSave(field: CalculatedField, kind: "measure" | "dimension"): void;
  onClose(): void;
}

const PROBLEM_WORDS: Record<Exclude<FormulaCheck, { ok: true }>["kind"], AppMessageKey> = {
  empty: "formulaEmpty",
  syntax: "formulaSyntax",
  limit: "formulaLimit",
  unknown_member: "formulaUnknownMember",
  unknown_function: "formulaUnknownFunction",
  type: "formulaType",
  mixing: "formulaMixing",
};

/** The problem in the viewer's words, where it is, and the formula with the place marked. */
function FormulaProblem(props: { id: string; formula: string; check: Exclude<FormulaCheck, { ok: true }>; onLocate(): void }) {
  const text = useAppText();
  const locale = useEmbedStore((s) => s.locale);
  const { check, formula } = props;
  const at = check.position;
  const sentence = formulaProblemText(locale, check, check.detail);
  const marked = formula.slice(at, check.end);
  return (
    <div className="svc-formula-problem" id={props.id} role="alert" data-testid="formula-error" data-position={at}>
      <p>
        {text(PROBLEM_WORDS[check.kind], { name: check.word ?? "" })}
        {check.kind !== "empty" ? ` — ${text("formulaAt", { n: at + 1 })}` : null}
      </p>
      {check.nearest ? <p data-testid="formula-did-you-mean">{text("formulaDidYouMean", { name: check.nearest })}</p> : null}
      {check.kind !== "empty" ? (
        <>
          <button type="button" className="svc-formula-pointer" onClick={props.onLocate} aria-label={text("formulaGoTo", { n: at + 1 })}>
            <code>
              {formula.slice(0, at)}
              <mark data-testid="formula-error-mark">{marked || " "}</mark>
              {formula.slice(check.end)}
            </code>
          </button>
          <small lang={sentence.lang} className="svc-formula-detail" data-testid="formula-detail">
            {sentence.text}
          </small>
        </>
      ) : null}
    </div>
  );
}

export function FormulaEditor(props: FormulaEditorProps) {
  const text = useAppText();
  const ids = useId();
  const input = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState(props.editing?.title ?? props.editing?.name ?? "");
  const [formula, setFormula] = useState(props.editing?.formula ?? "");
  const [tried, setTried] = useState(false);
  const check = checkFormulaText(formula, props.source);
  const name = fieldNameOf(title.trim(), `field_${props.fields.length + 1}`);
  const nameProblem = title.trim() ? nameProblemOf(name, props.source, props.fields, props.editing?.name) : "nameMissing";
  const showProblem = !check.ok && (tried || formula.trim() !== "");

  const locate = () => {
    if (check.ok || !input.current) return;
    input.current.focus();
    input.current.setSelectionRange(check.position, check.end);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!check.ok) return locate();
    if (nameProblem) return;
    props.onSave({ name, formula: formula.trim(), title: title.trim() }, check.kind);
  };

  return (
    <Dialog title={text(props.editing ? "formulaEditTitle" : "formulaNewTitle")} onClose={props.onClose} wide>
      <form className="svc-formula-editor" onSubmit={submit} noValidate data-testid="formula-editor">
        <label className="svc-app-field">
          <span>{text("formulaName")}</span>
          <input
            className="svc-app-input"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={200}
            autoFocus
            aria-invalid={tried && !!nameProblem}
            data-testid="formula-name"
          />
          {tried && nameProblem ? (
            <span className="svc-app-error" role="alert" data-testid="formula-name-error">
              {text(nameProblem === "nameMissing" ? "formulaNameMissing" : "formulaNameTaken", { name })}
            </span>
          ) : null}
        </label>
        <div className="svc-app-field">
          <label htmlFor={`${ids}-formula`}>{text("formulaLabel")}</label>
          <FormulaInput
            ref={input}
            value={formula}
            source={props.source}
            onChange={setFormula}
            invalid={showProblem}
            describedBy={`${ids}-hint ${ids}-check`}
            id={`${ids}-formula`}
          />
          <small className="svc-app-muted svc-formula-hint" id={`${ids}-hint`}>
            {text("formulaHint")}
          </small>
        </div>
        {showProblem && !check.ok ? (
          <FormulaProblem id={`${ids}-check`} formula={formula} check={check} onLocate={locate} />
        ) : check.ok ? (
          <p className="svc-formula-kind" id={`${ids}-check`} data-testid="formula-kind" role="status">
            {text(check.kind === "measure" ? "formulaIsMeasure" : "formulaIsDimension")}
          </p>
        ) : null}
        <div className="svc-app-dialog-actions">
          <button type="button" className="svc-button" onClick={props.onClose} data-testid="formula-cancel">
            {text("formulaCancel")}
          </button>
          <button type="submit" className="svc-button is-primary" data-testid="formula-add">
            {text(props.editing ? "formulaSave" : "formulaAdd")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
