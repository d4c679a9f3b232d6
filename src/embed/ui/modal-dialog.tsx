/** A modal dialog on the native <dialog> element: focus is trapped, Escape closes. */
import { useEffect, useRef, type ReactNode } from "react";
import "./modal-dialog.css";

export interface ModalDialogProps {
  /** Classes beside `svc-modal-dialog` (the frame: size, border, backdrop). */
  className: string;
  onClose(): void;
  children: ReactNode;
  "aria-label"?: string;
  "aria-labelledby"?: string;
  "data-testid"?: string;
}

export function ModalDialog(props: ModalDialogProps) {
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
    <dialog
      ref={ref}
      className={`svc-modal-dialog ${props.className}`}
      aria-label={props["aria-label"]}
      aria-labelledby={props["aria-labelledby"]}
      data-testid={props["data-testid"]}
    >
      {props.children}
    </dialog>
  );
}
