/** The platform login of private mode, shown in place of a surface the viewer may not see yet. */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { t, type SupportedLocale } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { useSvcPlatformApiMutation } from "../../client/react-query";
import { LockIcon } from "../ui/icons";
import { LoadingScreen } from "../ui/screens";
import { ApiError } from "./api";
import "../ui/buttons.css";
import "../ui/screens.css";
import "./login-screen.css";

/** The fragment key of a one-time sign-in link (`…#sign-in=<token>`; the server's SIGN_IN_FRAGMENT). */
const SIGN_IN_FRAGMENT = "sign-in";
/** How long the spinner waits for the surface after a sign-in with a link. */
const RELOAD_WAIT_MS = 10_000;

/** The token of a one-time sign-in link in the page's URL fragment, if any. */
function signInTokenFromUrl(): string | null {
  const fragment = window.location.hash.slice(1);
  return fragment ? new URLSearchParams(fragment).get(SIGN_IN_FRAGMENT) || null : null;
}

/** Takes the token out of the address bar and the history entry: it signs in once, and must not be copied around. */
function dropSignInToken() {
  const rest = new URLSearchParams(window.location.hash.slice(1));
  rest.delete(SIGN_IN_FRAGMENT);
  const fragment = rest.toString();
  window.history.replaceState(window.history.state, "", `${window.location.pathname}${window.location.search}${fragment ? `#${fragment}` : ""}`);
}

const failureMessage = (locale: SupportedLocale, failure: unknown, refused: "login.failed" | "login.linkFailed") =>
  failure instanceof ApiError && (failure.status === 401 || failure.status === 400) ? t(locale, refused) : t(locale, "error.NetworkError");

/**
 * Private mode without a platform login: sign in, then reload the surface. Opened from a
 * one-time sign-in link (`#sign-in=<token>`, printed by the first start for the admin or
 * created by an admin), it signs in with the link at once; a used or expired link leaves the
 * password form with a message saying so.
 */
export function LoginScreen(props: { onSignedIn: () => void }) {
  const locale = useEmbedStore((s) => s.locale);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const login = useSvcPlatformApiMutation("post", "/api/v1/auth/login", { onSuccess: () => props.onSignedIn() });
  const [linkToken] = useState(signInTokenFromUrl);
  const linkSignIn = useSvcPlatformApiMutation("post", "/api/v1/auth/sign-in-link", { onSuccess: () => props.onSignedIn() });
  const linkStarted = useRef(false);
  const { mutate: signInWithLink } = linkSignIn;
  useEffect(() => {
    if (!linkToken || linkStarted.current) return;
    linkStarted.current = true;
    dropSignInToken();
    signInWithLink({ body: { token: linkToken } });
  }, [linkToken, signInWithLink]);

  // Signed in, the surface is loading again; should it still ask for a login (a browser that
  // refused the cookie), the form comes back rather than a spinner without end.
  const [reloadTimedOut, setReloadTimedOut] = useState(false);
  useEffect(() => {
    if (!linkSignIn.isSuccess) return;
    const timer = setTimeout(() => setReloadTimedOut(true), RELOAD_WAIT_MS);
    return () => clearTimeout(timer);
  }, [linkSignIn.isSuccess]);

  if (linkToken && !linkSignIn.isError && !reloadTimedOut) return <LoadingScreen />;
  const busy = login.isPending;
  const error = login.error
    ? failureMessage(locale, login.error, "login.failed")
    : linkSignIn.error
      ? failureMessage(locale, linkSignIn.error, "login.linkFailed")
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
