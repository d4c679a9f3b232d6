import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { AppDeps } from "../../context";
import { oauthIntegrations, userOauthTokens } from "../../db/schema";
import { DomainError, notFound } from "../../domain/errors";
import { accessTokenFor } from "../oauth/service";

export const GIT_HOSTS = ["github", "gitea"] as const;
export type GitHost = (typeof GIT_HOSTS)[number];
type Deps = Pick<AppDeps, "db" | "secretBox" | "publicUrl" | "logger">;

/** The integration for the host: the first whose provider names it and that has an API base URL. */
async function integrationFor(deps: Deps, host: GitHost) {
  const [row] = await deps.db
    .select()
    .from(oauthIntegrations)
    .where(and(eq(oauthIntegrations.provider, host), isNotNull(oauthIntegrations.apiBaseUrl)))
    .orderBy(asc(oauthIntegrations.id))
    .limit(1);
  if (!row) throw notFound(`An OAuth integration for ${host} with an apiBaseUrl`);
  return row as typeof row & { apiBaseUrl: string };
}

async function call<T>(deps: Deps, userId: number, host: GitHost, path: string): Promise<T> {
  const integration = await integrationFor(deps, host);
  const token = await accessTokenFor(deps, userId, integration.id);
  let res: Response;
  try {
    res = await fetch(integration.apiBaseUrl + path, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json", "user-agent": "svc" },
      redirect: "error",
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new DomainError("upstream_failed", `${host} could not be reached`);
  }
  if (res.status === 401) throw new DomainError("oauth_reconnect_required", `${host} refused your token; connect again`);
  if (res.status === 404) throw notFound(`On ${host}, the resource`);
  if (!res.ok) throw new DomainError("upstream_failed", `${host} answered ${res.status}`);
  return (await res.json()) as T;
}

interface HostUser {
  id: number;
  login: string;
}
interface HostRepo {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  default_branch?: string;
  owner: { id: number; login: string };
}

export async function status(deps: Deps, userId: number, host: GitHost) {
  const integration = await integrationFor(deps, host);
  const [connected] = await deps.db
    .select({ userId: userOauthTokens.userId })
    .from(userOauthTokens)
    .where(and(eq(userOauthTokens.userId, userId), eq(userOauthTokens.integrationId, integration.id)));
  if (!connected) return { connected: false, integrationId: integration.id, apiBaseUrl: integration.apiBaseUrl, login: null };
  const me = await call<HostUser>(deps, userId, host, "/user");
  return { connected: true, integrationId: integration.id, apiBaseUrl: integration.apiBaseUrl, login: me.login };
}

/** GitHub: the app installations the user can reach. Gitea (no apps): the user's own account and their organizations. */
export async function installations(deps: Deps, userId: number, host: GitHost) {
  if (host === "github") {
    const body = await call<{ installations: { id: number; account: { login: string; type?: string } | null }[] }>(deps, userId, host, "/user/installations");
    return body.installations.map((i) => ({ id: i.id, account: i.account?.login ?? null, type: i.account?.type ?? null }));
  }
  const me = await call<HostUser>(deps, userId, host, "/user");
  const orgs = await call<{ id: number; username?: string; name?: string }[]>(deps, userId, host, "/user/orgs");
  return [
    { id: me.id, account: me.login, type: "User" },
    ...orgs.map((o) => ({ id: o.id, account: o.username ?? o.name ?? String(o.id), type: "Organization" })),
  ];
}

const repoView = (r: HostRepo) => ({
  id: r.id,
  name: r.name,
  fullName: r.full_name,
  owner: r.owner.login,
  private: r.private,
  defaultBranch: r.default_branch ?? null,
});

export async function repositories(deps: Deps, userId: number, host: GitHost, installationId: number) {
  if (host === "github") {
    const body = await call<{ repositories: HostRepo[] }>(deps, userId, host, `/user/installations/${installationId}/repositories?per_page=100`);
    return body.repositories.map(repoView);
  }
  const repos = await call<HostRepo[]>(deps, userId, host, "/user/repos?limit=50");
  return repos.filter((r) => r.owner.id === installationId).map(repoView);
}

export async function branches(deps: Deps, userId: number, host: GitHost, owner: string, repo: string) {
  const list = await call<{ name: string; commit?: { sha?: string; id?: string }; protected?: boolean }[]>(
    deps,
    userId,
    host,
    `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/branches?per_page=100`,
  );
  return list.map((b) => ({ name: b.name, sha: b.commit?.sha ?? b.commit?.id ?? null, protected: b.protected ?? false }));
}
