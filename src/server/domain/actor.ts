/** A platform user, authenticated by an API key or a login session. */
export interface UserPrincipal {
  kind: "user";
  userId: number;
  email: string;
  role: "viewer" | "ai_bi_user" | "developer" | "admin";
  via: "api_key" | "login_session" | "embed_creator";
  apiKeyId?: number;
  /** Set when an embed user in creator mode acts through this principal (their tenant, their deployment). */
  creator?: CreatorScope;
}

/** Where an embed creator may act: their tenant and the deployment of their session, nothing else. */
export interface CreatorScope {
  tenantId: number;
  tenantName: string;
  embedUserId: number;
  deploymentId: number;
  sharedFolderId: number;
}

export type Role = UserPrincipal["role"];
export const ROLE_ORDER: Record<Role, number> = { viewer: 0, ai_bi_user: 1, developer: 2, admin: 3 };

/** A viewer of a signed embed, authenticated by the token of an embed session. */
export interface EmbedPrincipal {
  kind: "embed";
  sessionId: number;
  deploymentId: number;
  embedTenant: string | null;
  embedUserId: number | null;
  externalId: string | null;
  groups: string[];
  userAttributes: Record<string, string | number | boolean | string[] | number[] | null>;
  securityContext: Record<string, unknown>;
  settings: Record<string, unknown>;
  /** Present when the session was made with `creatorMode` (true or an object of creator settings). */
  creatorMode?: true | Record<string, unknown>;
  expiresAt: number;
}

export type Principal = UserPrincipal | EmbedPrincipal;

export function hasRole(p: Principal, role: Role): boolean {
  return p.kind === "user" && ROLE_ORDER[p.role] >= ROLE_ORDER[role];
}

/** A platform user acting without a request (the demo seed, scripts): an admin by default. */
export function systemActor(userId: number, role: UserPrincipal["role"] = "admin"): UserPrincipal {
  return { kind: "user", userId, email: "", role, via: "api_key" };
}
