import type { UserPrincipal } from "../services/api-keys";

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
  expiresAt: number;
}

export type Principal = UserPrincipal | EmbedPrincipal;
export type { UserPrincipal };

export function hasRole(p: Principal, role: Role): boolean {
  return p.kind === "user" && ROLE_ORDER[p.role] >= ROLE_ORDER[role];
}
