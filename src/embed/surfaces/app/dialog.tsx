/** The app's dialogs: a titled modal (ui/modal-dialog.tsx). */
import type { ReactNode } from "react";
import { ModalDialog } from "../../ui/modal-dialog";

export function Dialog(props: { title: string; onClose(): void; children: ReactNode; wide?: boolean }) {
  return (
    <ModalDialog className={props.wide ? "svc-app-dialog is-wide" : "svc-app-dialog"} aria-label={props.title} data-testid="app-dialog" onClose={props.onClose}>
      <h2 className="svc-app-dialog-title">{props.title}</h2>
      {props.children}
    </ModalDialog>
  );
}
