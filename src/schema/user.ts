import { z } from "zod";
import { acceptingReadBack, Id, SafeText, SafeUrl, Timestamp } from "./common";

export const UserRole = z.enum(["viewer", "ai_bi_user", "developer", "admin"]);
export type UserRole = z.infer<typeof UserRole>;

export const User = z
  .object({
    id: z.number().int(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    picture: z.string().nullable(),
    role: UserRole,
    status: z.enum(["active", "inactive"]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "User" });
export type User = z.infer<typeof User>;

export const CreateUserInput = z
  .object({
    email: z.email().max(320),
    firstName: SafeText.max(255).nullable().optional(),
    lastName: SafeText.max(255).nullable().optional(),
    picture: SafeUrl.max(2048).nullable().optional(),
    role: UserRole.optional().meta({ description: "Defaults to viewer." }),
    password: SafeText.max(1024).optional().meta({ description: "Write-only; checked against the tenant's password rules, stored as an Argon2id hash." }),
  })
  .strict()
  .meta({ id: "CreateUserInput" });
export type CreateUserInput = z.infer<typeof CreateUserInput>;

export const UpdateUserInput = acceptingReadBack(
  z
    .object({
      firstName: SafeText.max(255).nullable().optional(),
      lastName: SafeText.max(255).nullable().optional(),
      picture: SafeUrl.max(2048).nullable().optional(),
      role: UserRole.optional(),
      status: z.enum(["active", "inactive"]).optional(),
    })
    .strict(),
  User,
  "UpdateUserInput",
);

export const BulkUserAction = z.enum(["ACTIVATE", "DEACTIVATE", "DELETE"]);
export const BulkUsersInput = z
  .object({ action: BulkUserAction, userIds: z.array(Id).min(1).max(1000) })
  .strict()
  .meta({ id: "BulkUsersInput" });
export type BulkUsersInput = z.infer<typeof BulkUsersInput>;
export const BulkUsersResult = z
  .object({
    succeeded: z.array(z.number().int()),
    failed: z.array(z.object({ userId: z.number().int(), code: z.string(), message: z.string() })),
  })
  .meta({ id: "BulkUsersResult" });
export type BulkUsersResult = z.infer<typeof BulkUsersResult>;
export type UpdateUserInput = z.infer<typeof UpdateUserInput>;

export const AccessLevel = z.enum(["read", "edit", "manage"]);
export type AccessLevel = z.infer<typeof AccessLevel>;
export const GrantObjectType = z.enum(["workbook", "folder", "report"]);
export type GrantObjectType = z.infer<typeof GrantObjectType>;
export const GrantPrincipalType = z.enum(["user", "group"]);
export type GrantPrincipalType = z.infer<typeof GrantPrincipalType>;

/** Object access granted to a user or a group; a folder grant covers everything inside it. */
export const Grant = z
  .object({
    objectType: GrantObjectType,
    objectId: z.number().int(),
    principalType: GrantPrincipalType,
    principalId: z.number().int(),
    level: AccessLevel,
    createdAt: Timestamp,
  })
  .meta({ id: "Grant" });
export type Grant = z.infer<typeof Grant>;

export const GrantInput = z
  .object({
    objectType: GrantObjectType,
    objectId: Id,
    principalType: GrantPrincipalType,
    principalId: Id,
    level: AccessLevel,
  })
  .strict()
  .meta({ id: "GrantInput" });
export type GrantInput = z.infer<typeof GrantInput>;
