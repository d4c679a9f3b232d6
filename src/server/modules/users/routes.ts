import { publishInvalidation } from "../../cluster/invalidation-bus";
import { createRoute, z } from "@hono/zod-openapi";
import { CreateUserInput, UpdateUserInput, User } from "../../../schema/user";
import { requireUser } from "../../http/auth";
import { badRequest } from "../../domain/errors";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { createUser, deleteUser, getUser, updateUser } from "./service";

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

const update = createRoute({
  operationId: "updateUser",
  method: "put",
  path: "/api/v1/users/{id}",
  tags,
  summary: "Update a user: role, status, names (admin)",
  security,
  request: { params: UserParams, ...jsonBody(UpdateUserInput) },
  responses: { 200: jsonContent(User, "The user."), ...commonErrors, ...notFoundError },
});

const remove = createRoute({
  operationId: "deleteUser",
  method: "delete",
  path: "/api/v1/users/{id}",
  tags,
  summary: "Delete a user (admin)",
  security,
  request: { params: UserParams },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});

export function registerUserRoutes(app: Router) {
  app.openapi(create, async (c) => {
    requireUser(c, "admin");
    return c.json(await createUser(c.get("deps").db, c.req.valid("json")), 201);
  });

  app.openapi(get, async (c) => {
    const actor = requireUser(c);
    const { id } = c.req.valid("param");
    if (actor.role !== "admin" && actor.userId !== id) requireUser(c, "admin");
    return c.json(await getUser(c.get("deps").db, id), 200);
  });

  app.openapi(update, async (c) => {
    requireUser(c, "admin");
    const { id } = c.req.valid("param");
    const user = await updateUser(c.get("deps").db, id, c.req.valid("json"));
    await publishInvalidation(c.get("deps").db, "user", id);
    return c.json(user, 200);
  });

  app.openapi(remove, async (c) => {
    const actor = requireUser(c, "admin");
    const { id } = c.req.valid("param");
    if (id === actor.userId) throw badRequest("You cannot delete yourself", [{ path: ["id"], message: "is the caller" }]);
    await deleteUser(c.get("deps").db, id);
    await publishInvalidation(c.get("deps").db, "user", id);
    return c.body(null, 204);
  });
}
