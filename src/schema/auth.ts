import { z } from "zod";
import { SafeText, Timestamp } from "./common";

export const LoginInput = z
  .object({ email: SafeText.trim().min(3).max(320), password: SafeText.min(1).max(1024) })
  .strict()
  .meta({ id: "LoginInput" });

export const SessionUser = z
  .object({
    id: z.number().int(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    role: z.enum(["viewer", "ai_bi_user", "developer", "admin"]),
  })
  .meta({ id: "SessionUser" });
export type SessionUser = z.infer<typeof SessionUser>;

export const LoginResponse = z
  .object({
    user: SessionUser,
    csrfToken: z.string().meta({ description: "Send as `X-CSRF-Token` on every cookie-authenticated write." }),
    expiresAt: Timestamp,
  })
  .meta({ id: "LoginResponse" });

export const MeResponse = z
  .object({
    user: SessionUser,
    via: z.enum(["api_key", "login_session", "oidc_token"]),
    csrfToken: z.string().nullable().meta({ description: "The login session's CSRF token; null for API keys." }),
    expiresAt: Timestamp.nullable(),
  })
  .meta({ id: "MeResponse" });

export const MIN_PASSWORD_LENGTH = 10;

export const SetPasswordInput = z
  .object({
    password: SafeText.min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024),
    currentPassword: SafeText.max(1024).optional().meta({ description: "Required when users change their own password and one is already set." }),
  })
  .strict()
  .meta({ id: "SetPasswordInput" });

export const SignInWithLinkInput = z
  .object({
    token: SafeText.min(1).max(200).meta({ description: "The token of a one-time sign-in link (what follows `#sign-in=` in the link)." }),
  })
  .strict()
  .meta({ id: "SignInWithLinkInput" });

export const CreateSignInLinkInput = z
  .object({
    dashboardPublicId: SafeText.min(1)
      .max(100)
      .optional()
      .meta({ description: "The dashboard the link opens in private mode; default the first published dashboard." }),
  })
  .strict()
  .meta({ id: "CreateSignInLinkInput" });

export const SignInLinkCreated = z
  .object({
    token: z.string().meta({ description: "Shown once; only its hash is stored." }),
    expiresAt: Timestamp,
    url: z.string().nullable().meta({
      description: "The private-mode dashboard URL with `#sign-in=<token>`: opening it signs the user in, once. Null when there is no dashboard yet.",
    }),
  })
  .meta({ id: "SignInLinkCreated" });
