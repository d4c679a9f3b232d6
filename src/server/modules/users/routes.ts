import { createRoute, z } from "@hono/zod-openapi";
import { BulkUsersInput, BulkUsersResult, CreateUserInput, UpdateUserInput, User } from "../../../schema/user";
import { requireUser } from "../../http/auth";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import type { AppEnv } from "../../http/app-env";
import type { Context } from "hono";
import { bulkUsers, createUser, deleteUser, getUser, updateUser } from "./service";
import { writeLog } from "../deployment-logs/service";

const tags = ["Users Admin"];
const UserParams = z.object({ id: IdParam });

const create = createRoute({
  operationId: "createUser",
  method: "post",
  path: "/api/v1/users/",
  tags,
  summary: "Create a user (admin)",
  security,
  request: jsonBody(CreateUserInput),
  responses: { 201: jsonContent(User, "The user."), ...commonErrors, ...conflictError },
});

const get = createRoute({
  operationId: "getUser",
  method: "get",
  path: "/api/v1/users/{id}",
  tags,
  summary: "Read a user (admin, or the user themself)",
  security,
  request: { params: UserParams },
  responses: { 200: jsonContent(User, "The user."), ...commonErrors, ...notFoundError },
});

const updateSpec = {
  tags,
  summary: "Update a user: role, status, names (admin); deactivating ends their keys, logins and sessions on the next request",
  security,
  request: { params: UserParams, ...jsonBody(UpdateUserInput) },
  responses: { 200: jsonContent(User, "The user."), ...commonErrors, ...notFoundError, ...conflictError },
};
const update = createRoute({ operationId: "updateUser", method: "put", path: "/api/v1/users/{id}", ...updateSpec });
const updatePost = createRoute({ operationId: "updateUserPost", method: "post", path: "/api/v1/users/{id}", ...updateSpec });

const remove = createRoute({
  operationId: "deleteUser",
  method: "delete",
  path: "/api/v1/users/{id}",
  tags,
  summary: "Delete a user (admin); a user who owns content is deactivated instead, their content kept",
  security,
  request: { params: UserParams },
  responses: { 204: { description: "Deleted, or deactivated when the user owns content." }, ...commonErrors, ...notFoundError, ...conflictError },
});

const bulk = createRoute({
  operationId: "bulkUsers",
  method: "post",
  path: "/api/v1/users/bulk",
  tags,
  summary: "Activate, deactivate or delete many users (admin); each user succeeds or fails on its own",
  security,
  request: jsonBody(BulkUsersInput),
  responses: { 200: jsonContent(BulkUsersResult, "Which users changed, and why the others did not."), ...commonErrors },
});

async function audit(c: Context<AppEnv>, message: string, details: Record<string, unknown>) {
  await writeLog(c.get("deps").db, { deploymentId: null, container: "MAIN", message, details });
}

export function registerUserRoutes(app: Router) {
  app.openapi(create, async (c) => {
    const actor = requireUser(c, "admin");
    const user = await createUser(c.get("deps").db, c.req.valid("json"));
    await audit(c, "user created", { actorUserId: actor.userId, userId: user.id, role: user.role });
    return c.json(user, 201);
  });

  // Before POST /users/{id}, which would otherwise take "bulk" for an id.
  app.openapi(bulk, async (c) => {
    const actor = requireUser(c, "admin");
    const input = c.req.valid("json");
    const result = await bulkUsers(c.get("deps").db, actor.userId, input);
    await audit(c, "users bulk action", {
      actorUserId: actor.userId,
      action: input.action,
      succeeded: result.succeeded,
      failed: result.failed.map((f) => f.userId),
    });
    return c.json(result, 200);
  });

  app.openapi(get, async (c) => {
    const actor = requireUser(c);
    const { id } = c.req.valid("param");
    if (actor.role !== "admin" && actor.userId !== id) requireUser(c, "admin");
    return c.json(await getUser(c.get("deps").db, id), 200);
  });

  for (const route of [update, updatePost]) {
    app.openapi(route, async (c) => {
      const actor = requireUser(c, "admin");
      const { id } = c.req.valid("param");
      const input = c.req.valid("json");
      const user = await updateUser(c.get("deps").db, actor.userId, id, input);
      await audit(c, "user updated", { actorUserId: actor.userId, userId: id, changed: Object.keys(input) });
      return c.json(user, 200);
    });
  }

  app.openapi(remove, async (c) => {
    const actor = requireUser(c, "admin");
    const { id } = c.req.valid("param");
    const outcome = await deleteUser(c.get("deps").db, actor.userId, id);
    await audit(c, `user ${outcome}`, { actorUserId: actor.userId, userId: id });
    return c.body(null, 204);
  });
}
