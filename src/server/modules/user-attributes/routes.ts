import { createRoute, z } from "@hono/zod-openapi";
import {
  CreateUserAttributeInput,
  SetUserAttributeValuesInput,
  UpdateUserAttributeInput,
  UserAttribute,
  UserAttributeValues,
} from "../../../schema/user-attribute";
import { requireUser } from "../../http/auth";
import { forbidden } from "../../domain/errors";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, openapiWithAlias, security, type Router } from "../../http/openapi";
import { createUserAttribute, getUserAttributeValues, listUserAttributes, setUserAttributeValues, updateUserAttribute } from "./service";

const UserAttributesResponse = z.object({ items: z.array(UserAttribute) }).meta({ id: "UserAttributesResponse" });

const list = createRoute({
  operationId: "listUserAttributes",
  method: "get",
  path: "/api/v1/user-attributes/",
  tags: ["User Attributes"],
  summary: "List user attribute definitions",
  security,
  responses: { 200: jsonContent(UserAttributesResponse, "The definitions."), ...commonErrors },
});

const create = createRoute({
  operationId: "createUserAttribute",
  method: "post",
  path: "/api/v1/user-attributes/",
  tags: ["User Attributes"],
  summary: "Define a user attribute: string, number, boolean, string_array or number_array (admin)",
  security,
  request: jsonBody(CreateUserAttributeInput),
  responses: { 201: jsonContent(UserAttribute, "The definition."), ...commonErrors, ...conflictError },
});

const update = createRoute({
  operationId: "updateUserAttribute",
  method: "put",
  path: "/api/v1/user-attributes/{id}",
  tags: ["User Attributes"],
  summary: "Rename, relabel or change the default of a user attribute; its type cannot change (admin)",
  security,
  request: { params: z.object({ id: IdParam }), ...jsonBody(UpdateUserAttributeInput) },
  responses: { 200: jsonContent(UserAttribute, "The definition."), ...commonErrors, ...notFoundError, ...conflictError },
});

const getValues = createRoute({
  operationId: "getUserAttributeValues",
  method: "get",
  path: "/api/v1/user-attribute-values/{userId}",
  tags: ["User Attribute Values"],
  summary: "A user's attribute values, defaults filled in (admin, or the user themself)",
  security,
  request: { params: z.object({ userId: IdParam }) },
  responses: { 200: jsonContent(UserAttributeValues, "The values."), ...commonErrors, ...notFoundError },
});

const setValues = createRoute({
  operationId: "setUserAttributeValues",
  method: "post",
  path: "/api/v1/user-attribute-values/",
  tags: ["User Attribute Values"],
  summary: "Set a user's attribute values, each checked against its type (admin; they drive row-level security)",
  security,
  request: jsonBody(SetUserAttributeValuesInput),
  responses: { 200: jsonContent(UserAttributeValues, "The values after the change."), ...commonErrors, ...notFoundError },
});

export function registerUserAttributeRoutes(app: Router) {
  const listHandler = async (c: Parameters<Parameters<typeof app.openapi<typeof list>>[1]>[0]) => {
    requireUser(c);
    return c.json({ items: await listUserAttributes(c.get("deps").db) }, 200);
  };
  openapiWithAlias(app, list, "/api/v1/user-attributes", listHandler);

  const createHandler = async (c: Parameters<Parameters<typeof app.openapi<typeof create>>[1]>[0]) => {
    requireUser(c, "admin");
    return c.json(await createUserAttribute(c.get("deps").db, c.req.valid("json")), 201);
  };
  openapiWithAlias(app, create, "/api/v1/user-attributes", createHandler);

  app.openapi(update, async (c) => {
    requireUser(c, "admin");
    return c.json(await updateUserAttribute(c.get("deps").db, c.req.valid("param").id, c.req.valid("json")), 200);
  });

  app.openapi(getValues, async (c) => {
    const user = requireUser(c);
    const { userId } = c.req.valid("param");
    if (user.role !== "admin" && user.userId !== userId) throw forbidden("Only admins can read another user's attributes");
    return c.json(await getUserAttributeValues(c.get("deps").db, userId), 200);
  });

  // Users cannot set their own values: attributes decide which rows they may see.
  const setHandler = async (c: Parameters<Parameters<typeof app.openapi<typeof setValues>>[1]>[0]) => {
    requireUser(c, "admin");
    const { userId, values } = c.req.valid("json");
    return c.json(await setUserAttributeValues(c.get("deps").db, userId, values), 200);
  };
  openapiWithAlias(app, setValues, "/api/v1/user-attribute-values", setHandler);
}
