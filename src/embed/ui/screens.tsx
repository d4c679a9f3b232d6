/** Full-surface screens: loading and fatal errors (the shell's and every surface's). */
import type { ReactNode } from "react";
import { MESSAGE_CATALOGS, t, type MessageKey } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { AlertIcon, LockIcon } from "./icons";
import "./visually-hidden.css";
import "./screens.css";

export function LoadingScreen() {
  const locale = useEmbedStore((s) => s.locale);
  return (
    <div className="svc-screen" role="status" aria-live="polite" data-testid="surface-loading">
      <div className="svc-spinner" aria-hidden="true" />
      <span className="svc-visually-hidden">{t(locale, "loading")}</span>
    </div>
  );
}

export interface ErrorScreenProps {
  /** Protocol error name, e.g. `SessionInvalid`. */
  name: string;
  /** Headline key; defaults to the error name's message. */
  titleKey?: MessageKey;
  message: string;
  action?: ReactNode;
}

export function ErrorScreen(props: ErrorScreenProps) {
  const locale = useEmbedStore((s) => s.locale);
  const candidate = `error.${props.name}`;
  const titleKey = props.titleKey ?? (candidate in MESSAGE_CATALOGS["en-US"] ? (candidate as MessageKey) : "error.generic");
  const title = t(locale, titleKey);
  return (
    <div className="svc-screen" data-testid="surface-error" data-error-name={props.name}>
      <div className="svc-screen-card" role="alert">
        <div className={`svc-screen-icon ${props.name === "Forbidden" || props.name.startsWith("Session") ? "is-lock" : ""}`}>
          {props.name === "Forbidden" || props.name.startsWith("Session") ? <LockIcon size={22} /> : <AlertIcon size={22} />}
        </div>
        <h1 className="svc-screen-title">{title}</h1>
        <p className="svc-screen-message">{props.message}</p>
        {props.action ? <div className="svc-screen-actions">{props.action}</div> : null}
      </div>
    </div>
  );
}
