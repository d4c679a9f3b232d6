import { checkPassword, readTenantSettings } from "../tenant-settings/service";
import { getConnInfo } from "@hono/node-server/conninfo";
import { createRoute, z } from "@hono/zod-openapi";
import { asc, eq } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { CreateSignInLinkInput, LoginInput, LoginResponse, MeResponse, SetPasswordInput, SignInLinkCreated, SignInWithLinkInput } from "../../../schema/auth";
import { dashboards, users } from "../../db/schema";
import type { AppEnv } from "../../http/app-env";
import { requirePrincipal, requireUser } from "../../http/auth";
import { badRequest, forbidden, notFound, unauthorized } from "../../domain/errors";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { LOGIN_COOKIE } from "../../http/auth";
import { createSignInLink, loginFor, signInUrl, verifyPassword, type CookiePrincipal } from "./service";
import { writeLog } from "../deployment-logs/service";

const tags = ["Users Admin"];

// The embed runs in a cross-site iframe: the cookie must be sent there (SameSite=None, which
// needs Secure) and is kept per top-level site (Partitioned, CHIPS). Scripts never read it.
const cookieOptions = { httpOnly: true, secure: true, sameSite: "None", partitioned: true, path: "/" } as const;

const userView = (u: typeof users.$inferSelect) => ({ id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName, role: u.role });

/**
 * The client's address for rate limiting: the TCP peer. Forwarded headers are not trusted, so
 * they cannot be rotated to dodge the limit; behind a proxy all logins share its address and
 * the per-email limit still holds.
 */
function clientIp(c: Context<AppEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

const login = createRoute({
  operationId: "login",
  method: "post",
  path: "/api/v1/auth/login",
  tags,
  summary: "Log in with email and password; sets the `svc_session` cookie (private-mode embedding)",
  // Public: no credentials needed (the OpenAPI document says so with an empty security list).
  security: [],
  description:
    "Failed attempts are limited per client address and email (10 per 15 minutes) and per address; beyond that the answer is 429 `rate_limited` with Retry-After.",
  request: jsonBody(LoginInput),
  responses: {
    200: jsonContent(LoginResponse, "Logged in; the cookie is set."),
    ...commonErrors,
    429: jsonContent(z.object({ code: z.string(), message: z.string() }), "Too many failed attempts; see Retry-After."),
  },
});

const signInWithLink = createRoute({
  operationId: "signInWithLink",
  method: "post",
  path: "/api/v1/auth/sign-in-link",
  tags,
  summary: "Sign in with a one-time sign-in link's token; sets the `svc_session` cookie (private-mode embedding)",
  // Public: no credentials needed (the OpenAPI document says so with an empty security list).
  security: [],
  description:
    "The token is what follows `#sign-in=` in the link (the embed's login screen sends it). A link signs in once, within an hour of its creation; an unknown, used or expired token is 401. Failures count against the client address like failed logins.",
  request: jsonBody(SignInWithLinkInput),
  responses: {
    200: jsonContent(LoginResponse, "Signed in; the cookie is set."),
    ...commonErrors,
    429: jsonContent(z.object({ code: z.string(), message: z.string() }), "Too many failed attempts; see Retry-After."),
  },
});

const createLink = createRoute({
  operationId: "createSignInLink",
  method: "post",
  path: "/api/v1/users/{id}/sign-in-links",
  tags,
  summary: "Create a one-time sign-in link for a user (admin): one use, valid for an hour, shown once",
  security,
  request: { params: z.object({ id: IdParam }), ...jsonBody(CreateSignInLinkInput, { required: false }) },
  responses: { 201: jsonContent(SignInLinkCreated, "The link; only its hash is stored."), ...commonErrors, ...notFoundError },
});

const logout = createRoute({
  operationId: "logout",
  method: "post",
  path: "/api/v1/auth/logout",
  tags,
  summary: "End the login session and clear the cookie (idempotent)",
  // Public: no credentials needed (the OpenAPI document says so with an empty security list).
  security: [],
  responses: { 204: { description: "Logged out." }, ...commonErrors },
});

const me = createRoute({
  operationId: "getCurrentUser",
  method: "get",
  path: "/api/v1/auth/me",
  tags,
  summary: "Who is logged in (cookie) or whose key this is; with the CSRF token of a login session",
  security,
  responses: { 200: jsonContent(MeResponse, "The current user."), ...commonErrors },
});

const setPassword = createRoute({
  operationId: "setUserPassword",
  method: "put",
  path: "/api/v1/users/{id}/password",
  tags,
  summary: "Set a user's password (admin, or the user with their current password); ends their other login sessions",
  security,
  request: { params: z.object({ id: IdParam }), ...jsonBody(SetPasswordInput) },
  responses: { 204: { description: "Password set." }, ...commonErrors, ...notFoundError },
});

export function registerAuthRoutes(app: Router) {
  app.openapi(login, async (c) => {
    const db = c.get("deps").db;
    const { email, password } = c.req.valid("json");
    const result = await loginFor(db).login({ email, password, ip: clientIp(c) });
    if (!result) throw unauthorized("Email or password is incorrect");
    const maxAge = Math.floor((result.expiresAt.getTime() - Date.now()) / 1000);
    setCookie(c, LOGIN_COOKIE, result.token, { ...cookieOptions, maxAge });
    c.header("Cache-Control", "no-store");
    return c.json({ user: userView(result.user), csrfToken: result.csrfToken, expiresAt: result.expiresAt.toISOString() }, 200);
  });

  app.openapi(signInWithLink, async (c) => {
    const { token } = c.req.valid("json");
    const result = await loginFor(c.get("deps").db).signInWithLink({ token, ip: clientIp(c) });
    if (!result) throw unauthorized("This sign-in link is unknown, was already used or has expired");
    const maxAge = Math.floor((result.expiresAt.getTime() - Date.now()) / 1000);
    setCookie(c, LOGIN_COOKIE, result.token, { ...cookieOptions, maxAge });
    c.header("Cache-Control", "no-store");
    return c.json({ user: userView(result.user), csrfToken: result.csrfToken, expiresAt: result.expiresAt.toISOString() }, 200);
  });

  app.openapi(createLink, async (c) => {
    const actor = requireUser(c, "admin");
    const { id } = c.req.valid("param");
    const body = c.req.valid("json") ?? {};
    const deps = c.get("deps");
    const [user] = await deps.db.select().from(users).where(eq(users.id, id));
    if (!user) throw notFound("User");
    if (user.status !== "active") throw badRequest("The user is inactive", [{ path: ["id"], message: "inactive user", code: "invalid" }]);
    const [dashboard] = body.dashboardPublicId
      ? await deps.db.select({ publicId: dashboards.publicId }).from(dashboards).where(eq(dashboards.publicId, body.dashboardPublicId))
      : await deps.db.select({ publicId: dashboards.publicId }).from(dashboards).where(eq(dashboards.status, "published")).orderBy(asc(dashboards.id)).limit(1);
    if (body.dashboardPublicId && !dashboard) throw notFound("Dashboard");
    const link = await createSignInLink(deps.db, id);
    // Audited like every administration change: who made a link for whom, never the token.
    await writeLog(deps.db, {
      deploymentId: null,
      container: "MAIN",
      message: "sign-in link created",
      details: { actorUserId: actor.userId, userId: id, expiresAt: link.expiresAt.toISOString() },
    });
    c.header("Cache-Control", "no-store");
    return c.json(
      {
        token: link.token,
        expiresAt: link.expiresAt.toISOString(),
        url: dashboard ? signInUrl(`${deps.publicUrl}/embed/dashboard/${dashboard.publicId}`, link.token) : null,
      },
      201,
    );
  });

  app.openapi(logout, async (c) => {
    await loginFor(c.get("deps").db).logout(getCookie(c, LOGIN_COOKIE));
    deleteCookie(c, LOGIN_COOKIE, cookieOptions);
    return c.body(null, 204);
  });

  app.openapi(me, async (c) => {
    const p = requirePrincipal(c);
    if (p.kind !== "user") throw forbidden("An embed token has no platform user; see GET /api/v1/embed/dashboard/{publicId} for the viewer");
    const [user] = await c.get("deps").db.select().from(users).where(eq(users.id, p.userId));
    if (!user) throw unauthorized();
    const cookie = p.via === "login_session" ? (p as CookiePrincipal) : null;
    c.header("Cache-Control", "no-store");
    return c.json(
      {
        user: userView(user),
        via: p.via === "embed_creator" ? "api_key" : p.via,
        csrfToken: cookie?.csrfToken ?? null,
        expiresAt: cookie ? new Date(cookie.sessionExpiresAt).toISOString() : null,
      },
      200,
    );
  });

  app.openapi(setPassword, async (c) => {
    const caller = requireUser(c);
    const { id } = c.req.valid("param");
    const { password, currentPassword } = c.req.valid("json");
    const db = c.get("deps").db;
    if (caller.role !== "admin" && caller.userId !== id) throw forbidden("Only admins can set another user's password");
    const [user] = await db.select().from(users).where(eq(users.id, id));
    if (!user) throw notFound("User");
    if (caller.role !== "admin" && user.passwordHash) {
      // A stolen session alone must not be enough to take over the account.
      if (!currentPassword || !(await verifyPassword(user.passwordHash, currentPassword))) {
        throw badRequest("currentPassword is missing or wrong", [
          { path: ["currentPassword"], message: "does not match the current password", code: "invalid" },
        ]);
      }
    }
    checkPassword((await readTenantSettings(db)).passwordRules, password);
    const keep = caller.userId === id && caller.via === "login_session" ? (caller as CookiePrincipal).loginSessionId : undefined;
    await loginFor(db).setPassword(id, password, keep);
    return c.body(null, 204);
  });
}
