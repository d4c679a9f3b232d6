import { Cron } from "croner";
import { z } from "zod";
import { acceptingReadBack, Id, Name, SafeText, Timestamp } from "./common";
import { DASHBOARD_FILTER_OPERATORS, MEMBER_NAME_PATTERN, TIME_GRANULARITIES } from "./dashboard-filters";
import { PublicId } from "./report";
import { TimeZone } from "./tenant-settings";

const CronPattern = SafeText.min(9)
  .max(120)
  .refine(
    (v) => {
      try {
        new Cron(v, { paused: true });
        return true;
      } catch {
        return false;
      }
    },
    { message: "is not a cron pattern like 0 8 * * 1" },
  );

const Member = z.string().max(255).regex(MEMBER_NAME_PATTERN, "must be <view>.<member>");
const Scalar = z.union([SafeText.max(1000), z.number(), z.boolean()]);

export const NotificationRecipientInput = z
  .union([
    z.object({ userId: Id }).strict(),
    z.object({ email: z.email().max(320) }).strict(),
    z.object({ embedTenantName: Name, externalId: SafeText.min(1).max(255), username: SafeText.max(255).optional() }).strict(),
  ])
  .meta({
    id: "NotificationRecipient",
    description: "A platform user, an e-mail address, or an embed-tenant user; each receives the data their own row-level security allows.",
  });

const fields = {
  name: Name.nullable(),
  schedule: z.object({ cron: CronPattern, timezone: TimeZone }).strict(),
  recipients: z.array(NotificationRecipientInput).min(1).max(200),
  filters: z
    .array(z.object({ member: Member, operator: z.enum(DASHBOARD_FILTER_OPERATORS), value: z.union([Scalar, z.array(Scalar).max(1000)]).optional() }).strict())
    .max(50)
    .meta({ description: "DashboardFilter: applied to every report of the dashboard." }),
  timeGrains: z.record(Member, z.enum(TIME_GRANULARITIES)).meta({ description: "DashboardTimeGrain: granularity per time dimension." }),
  format: z.enum(["html", "csv"]).meta({ description: "html: tables in the message; csv: one attachment per report too." }),
  enabled: z.boolean(),
};

export const CreateNotificationInput = z
  .object({
    dashboardId: Id.optional(),
    dashboardPublicId: PublicId.optional(),
    name: fields.name.optional(),
    schedule: fields.schedule,
    recipients: fields.recipients,
    filters: fields.filters.default([]),
    timeGrains: fields.timeGrains.default({}),
    format: fields.format.default("html"),
    enabled: fields.enabled.default(true),
  })
  .strict()
  .refine((v) => (v.dashboardId === undefined) !== (v.dashboardPublicId === undefined), {
    message: "give exactly one of dashboardId and dashboardPublicId",
    path: ["dashboardId"],
  })
  .meta({ id: "CreateNotificationInput" });
export type CreateNotificationInput = z.infer<typeof CreateNotificationInput>;

export const Notification = z
  .object({
    id: z.number().int(),
    name: z.string().nullable(),
    dashboardId: z.number().int(),
    dashboardPublicId: z.string(),
    schedule: z.object({ cron: z.string(), timezone: z.string() }),
    recipients: z.array(z.record(z.string(), z.unknown())),
    filters: z.array(z.record(z.string(), z.unknown())),
    timeGrains: z.record(z.string(), z.string()),
    format: z.enum(["html", "csv"]),
    enabled: z.boolean(),
    nextRunAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Notification" });
export type Notification = z.infer<typeof Notification>;

export const UpdateNotificationInput = acceptingReadBack(
  z
    .object({
      name: fields.name.optional(),
      schedule: fields.schedule.optional(),
      recipients: fields.recipients.optional(),
      filters: fields.filters.optional(),
      timeGrains: fields.timeGrains.optional(),
      format: fields.format.optional(),
      enabled: fields.enabled.optional(),
    })
    .strict(),
  Notification,
  "UpdateNotificationInput",
);
export type UpdateNotificationInput = z.infer<typeof UpdateNotificationInput>;

export const NotificationDelivery = z
  .object({
    id: z.number().int(),
    notificationId: z.number().int(),
    trigger: z.enum(["schedule", "manual"]),
    occurrence: z.string().nullable(),
    status: z.enum(["sending", "sent", "partial", "failed"]),
    results: z.array(z.object({ recipient: z.string(), status: z.enum(["sent", "failed"]), error: z.string().optional() })),
    startedAt: Timestamp,
    finishedAt: Timestamp.nullable(),
  })
  .meta({ id: "NotificationDelivery" });
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;
