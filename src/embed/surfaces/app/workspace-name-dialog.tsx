/** The dialog that asks for a name: to create a folder or workbook, or to rename one. */
import { useState, type FormEvent } from "react";
import { messageOf } from "./app-context";
import { Dialog } from "./dialog";
import { useWorkspaceText } from "./workspace-text";

export function NameDialog(props: {
  /** The dialog's title, in the viewer's language. */
  title: string;
  /** The name filled in when it opens. */
  initial: string;
  /** The submit button's word, in the viewer's language. */
  action: string;
  onClose(): void;
  /** Saves the trimmed name; a rejection is shown in the dialog, which stays open. */
  onSubmit(name: string): Promise<void>;
}) {
  const { tx } = useWorkspaceText();
  const [name, setName] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError(tx("wsNameNeeded"));
    setBusy(true);
    setError(null);
    try {
      await props.onSubmit(name.trim());
      props.onClose();
    } catch (err) {
      // The name stays as typed so nothing is lost.
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <label className="svc-app-field">
          <span>{tx("wsName")}</span>
          <input className="svc-app-input" value={name} onChange={(e) => setName(e.target.value)} autoFocus maxLength={255} data-testid="name-input" />
        </label>
        {error ? (
          <p className="svc-app-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="svc-app-dialog-actions">
          <button type="button" className="svc-button" onClick={props.onClose}>
            {tx("wsCancel")}
          </button>
          <button type="submit" className="svc-button is-primary" disabled={busy} data-testid="name-submit">
            {busy ? tx("wsSaving") : props.action}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
