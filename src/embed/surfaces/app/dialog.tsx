/** A modal dialog on the native <dialog> element: focus is trapped, Escape closes. */
import { useEffect, useRef, type ReactNode } from "react";

export function Dialog(props: { title: string; onClose(): void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const { onClose } = props;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (!el.open) el.showModal?.();
    const cancel = (e: Event) => {
      e.preventDefault();
      onClose();
    };
    el.addEventListener("cancel", cancel);
    return () => el.removeEventListener("cancel", cancel);
  }, [onClose]);
  return (
    <dialog ref={ref} className={props.wide ? "svc-app-dialog is-wide" : "svc-app-dialog"} aria-label={props.title} data-testid="app-dialog">
      <h2 className="svc-app-dialog-title">{props.title}</h2>
      {props.children}
    </dialog>
  );
}
