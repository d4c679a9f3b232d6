/** Full-surface screens: loading, fatal errors, and the platform login of private mode. */
import { useState, type FormEvent, type ReactNode } from "react";
import { MESSAGE_CATALOGS, t, type MessageKey } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { useSvcPlatformApiMutation } from "../../client/react-query";
import { ApiError } from "../shell/api";
import { AlertIcon, LockIcon } from "./icons";

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

/** Private mode without a platform login: sign in, then reload the surface. */
export function LoginScreen(props: { onSignedIn: () => void }) {
  const locale = useEmbedStore((s) => s.locale);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const login = useSvcPlatformApiMutation("post", "/api/v1/auth/login", { onSuccess: () => props.onSignedIn() });
  const busy = login.isPending;
  const failure = login.error;
  const error = failure
    ? failure instanceof ApiError && (failure.status === 401 || failure.status === 400)
      ? t(locale, "login.failed")
      : t(locale, "error.NetworkError")
    : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate({ body: { email: email.trim(), password } });
  }

  return (
    <div className="svc-screen" data-testid="login">
      <form className="svc-screen-card svc-login" onSubmit={submit} aria-labelledby="svc-login-title">
        <div className="svc-screen-icon is-lock">
          <LockIcon size={22} />
        </div>
        <h1 id="svc-login-title" className="svc-screen-title">
          {t(locale, "login.title")}
        </h1>
        <p className="svc-screen-message">{t(locale, "login.hint")}</p>
        <label className="svc-field">
          <span>{t(locale, "login.email")}</span>
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="svc-field">
          <span>{t(locale, "login.password")}</span>
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {error ? (
          <p className="svc-form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button className="svc-button is-primary is-block" type="submit" disabled={busy}>
          {t(locale, "login.submit")}
        </button>
      </form>
    </div>
  );
}
