import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBody, Name, PageInfo, SafeText } from "../../../schema/common";
import { CreateNotificationInput, Notification, NotificationDelivery, UpdateNotificationInput } from "../../../schema/notification";
import { PublicId } from "../../../schema/report";
import { requireUser } from "../../http/auth";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { createNotification, deleteNotification, getNotification, listDeliveries, listNotifications, runNow, updateNotification } from "./service";

const tags = ["Notifications"];
const params = z.object({ id: IdParam });
const List = z
  .object({
    items: z.array(Notification),
    pageInfo: PageInfo,
    data: z.array(Notification).meta({ deprecated: true }),
    count: z.number().int().meta({ deprecated: true }),
  })
  .meta({ id: "NotificationsListResponse" });
const Deliveries = z.object({ items: z.array(NotificationDelivery) }).meta({ id: "NotificationDeliveriesResponse" });

const list = createRoute({
  operationId: "listNotifications",
  method: "get",
  path: "/api/v1/notifications",
  tags,
  summary: "Notifications (admin); filter by dashboard or recipient",
  security,
  request: {
    query: z.object({
      dashboardPublicId: PublicId.optional(),
      recipientUserId: IdParam.optional(),
      recipientEmail: z.email().max(320).optional(),
      recipientEmbedTenantName: Name.optional(),
      recipientExternalId: SafeText.min(1).max(255).optional(),
    }),
  },
  responses: { 200: jsonContent(List, "The notifications."), ...commonErrors },
});
const create = createRoute({
  operationId: "createNotification",
  method: "post",
  path: "/api/v1/notifications",
  tags,
  summary: "Schedule deliveries of a dashboard by e-mail (admin)",
  security,
  request: jsonBody(CreateNotificationInput),
  responses: { 201: jsonContent(Notification, "The notification."), ...commonErrors, ...notFoundError },
});
const get = createRoute({
  operationId: "getNotification",
  method: "get",
  path: "/api/v1/notifications/{id}",
  tags,
  summary: "Read a notification (admin)",
  security,
  request: { params },
  responses: { 200: jsonContent(Notification, "The notification."), ...commonErrors, ...notFoundError },
});
const update = createRoute({
  operationId: "updateNotification",
  method: "put",
  path: "/api/v1/notifications/{id}",
  tags,
  summary: "Change a notification (admin)",
  security,
  request: { params, ...jsonBody(UpdateNotificationInput) },
  responses: { 200: jsonContent(Notification, "The notification."), ...commonErrors, ...notFoundError },
});
const remove = createRoute({
  operationId: "deleteNotification",
  method: "delete",
  path: "/api/v1/notifications/{id}",
  tags,
  summary: "Delete a notification (admin)",
  security,
  request: { params },
  responses: { 204: { description: "Deleted." }, ...commonErrors, ...notFoundError },
});
const run = createRoute({
  operationId: "runNotification",
  method: "post",
  path: "/api/v1/notifications/{id}/run",
  tags,
  summary: "Deliver now, outside the schedule (admin); the delivery with each recipient's outcome",
  security,
  request: { params },
  responses: {
    200: jsonContent(NotificationDelivery, "The delivery."),
    ...commonErrors,
    ...notFoundError,
    409: jsonContent(ErrorBody, "No SMTP server is configured."),
  },
});
const history = createRoute({
  operationId: "listNotificationDeliveries",
  method: "get",
  path: "/api/v1/notifications/{id}/deliveries",
  tags,
  summary: "Delivery history, newest first (admin)",
  security,
  request: { params },
  responses: { 200: jsonContent(Deliveries, "The deliveries."), ...commonErrors, ...notFoundError },
});

export function registerNotificationRoutes(app: Router) {
  app.openapi(list, async (c) => {
    requireUser(c, "admin");
    const items = await listNotifications(c.get("deps").db, c.req.valid("query"));
    return c.json({ items, pageInfo: { hasNextPage: false, hasPreviousPage: false }, data: items, count: items.length }, 200);
  });
  app.openapi(create, async (c) => {
    const actor = requireUser(c, "admin");
    return c.json(await createNotification(c.get("deps").db, actor.userId, c.req.valid("json")), 201);
  });
  app.openapi(get, async (c) => {
    requireUser(c, "admin");
    return c.json(await getNotification(c.get("deps").db, c.req.valid("param").id), 200);
  });
  app.openapi(update, async (c) => {
    requireUser(c, "admin");
    return c.json(await updateNotification(c.get("deps").db, c.req.valid("param").id, c.req.valid("json")), 200);
  });
  app.openapi(remove, async (c) => {
    requireUser(c, "admin");
    await deleteNotification(c.get("deps").db, c.req.valid("param").id);
    return c.body(null, 204);
  });
  app.openapi(run, async (c) => {
    requireUser(c, "admin");
    return c.json(await runNow(c.get("deps"), c.req.valid("param").id), 200);
  });
  app.openapi(history, async (c) => {
    requireUser(c, "admin");
    return c.json({ items: await listDeliveries(c.get("deps").db, c.req.valid("param").id) }, 200);
  });
}
