import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBody, IdParam } from "../../../schema/common";
import { requireUser } from "../../http/auth";
import { commonErrors, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { branches, GIT_HOSTS, installations, repositories, status } from "./service";

const upstream = {
  409: jsonContent(ErrorBody, "Connect your account first (`oauth_reconnect_required`)."),
  502: jsonContent(ErrorBody, "The git host failed (`upstream_failed`)."),
} as const;
const Segment = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "must be a name of letters, digits, _ . -");

const Status = z
  .object({ connected: z.boolean(), integrationId: z.number().int(), apiBaseUrl: z.string(), login: z.string().nullable() })
  .meta({ id: "GitHostStatus" });
const Installations = z
  .object({ items: z.array(z.object({ id: z.number().int(), account: z.string().nullable(), type: z.string().nullable() })) })
  .meta({ id: "GitHostInstallations" });
const Repositories = z
  .object({
    items: z.array(
      z.object({ id: z.number().int(), name: z.string(), fullName: z.string(), owner: z.string(), private: z.boolean(), defaultBranch: z.string().nullable() }),
    ),
  })
  .meta({ id: "GitHostRepositories" });
const Branches = z
  .object({ items: z.array(z.object({ name: z.string(), sha: z.string().nullable(), protected: z.boolean() })) })
  .meta({ id: "GitHostBranches" });

/** `/api/v1/{github|gitea}/…`: discovery through the caller's own OAuth token for that host. */
export function registerGitHostRoutes(app: Router) {
  for (const host of GIT_HOSTS) {
    const tags = ["Git Host"];
    const base = `/api/v1/${host}`;
    app.openapi(
      createRoute({
        operationId: `${host}Status`,
        method: "get",
        path: `${base}/status`,
        tags,
        summary: `Whether the caller has connected ${host}, and as whom`,
        security,
        responses: { 200: jsonContent(Status, "The status."), ...commonErrors, ...notFoundError, ...upstream },
      }),
      async (c) => c.json(await status(c.get("deps"), requireUser(c).userId, host), 200),
    );
    app.openapi(
      createRoute({
        operationId: `${host}Installations`,
        method: "get",
        path: `${base}/installations`,
        tags,
        summary: `The ${host} installations (accounts) the caller can reach`,
        security,
        responses: { 200: jsonContent(Installations, "The installations."), ...commonErrors, ...notFoundError, ...upstream },
      }),
      async (c) => c.json({ items: await installations(c.get("deps"), requireUser(c).userId, host) }, 200),
    );
    app.openapi(
      createRoute({
        operationId: `${host}InstallationRepositories`,
        method: "get",
        path: `${base}/installations/{installationId}/repositories`,
        tags,
        summary: `Repositories of a ${host} installation`,
        security,
        request: { params: z.object({ installationId: IdParam }) },
        responses: { 200: jsonContent(Repositories, "The repositories."), ...commonErrors, ...notFoundError, ...upstream },
      }),
      async (c) => c.json({ items: await repositories(c.get("deps"), requireUser(c).userId, host, c.req.valid("param").installationId) }, 200),
    );
    app.openapi(
      createRoute({
        operationId: `${host}RepositoryBranches`,
        method: "get",
        path: `${base}/repositories/{owner}/{repo}/branches`,
        tags,
        summary: `Branches of a ${host} repository`,
        security,
        request: { params: z.object({ owner: Segment, repo: Segment }) },
        responses: { 200: jsonContent(Branches, "The branches."), ...commonErrors, ...notFoundError, ...upstream },
      }),
      async (c) => {
        const { owner, repo } = c.req.valid("param");
        return c.json({ items: await branches(c.get("deps"), requireUser(c).userId, host, owner, repo) }, 200);
      },
    );
  }
}
