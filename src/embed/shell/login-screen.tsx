/** The platform login of private mode, shown in place of a surface the viewer may not see yet. */
import { useState, type FormEvent } from "react";
import { t } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { useSvcPlatformApiMutation } from "../../client/react-query";
import { LockIcon } from "../ui/icons";
import { ApiError } from "./api";
import "../ui/buttons.css";
import "../ui/screens.css";
import "./login-screen.css";

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
