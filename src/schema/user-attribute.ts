import { z } from "zod";
import { Id, SafeText, Timestamp } from "./common";
import { UserAttributeValue } from "./embed-session";

/** Spec 2.9: the five user attribute types. */
export const UserAttributeType = z.enum(["string", "number", "boolean", "string_array", "number_array"]);
export type UserAttributeType = z.infer<typeof UserAttributeType>;

export const USER_ATTRIBUTE_NAME = /^[_a-zA-Z][_a-zA-Z0-9]{0,63}$/;

export const UserAttribute = z
  .object({
    id: z.number().int(),
    name: z.string(),
    displayName: z.string().nullable(),
    type: UserAttributeType,
    defaultValue: UserAttributeValue,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "UserAttribute" });
export type UserAttribute = z.infer<typeof UserAttribute>;

export const CreateUserAttributeInput = z
  .object({
    name: z.string().regex(USER_ATTRIBUTE_NAME, "must match ^[_a-zA-Z][_a-zA-Z0-9]{0,63}$"),
    displayName: SafeText.trim().max(200).nullable().optional(),
    type: UserAttributeType,
    defaultValue: UserAttributeValue.optional(),
  })
  .strict()
  .meta({ id: "CreateUserAttributeInput" });

/** `type` may be sent only with its current value: it is immutable once set. */
export const UpdateUserAttributeInput = z
  .object({
    name: z.string().regex(USER_ATTRIBUTE_NAME, "must match ^[_a-zA-Z][_a-zA-Z0-9]{0,63}$").optional(),
    displayName: SafeText.trim().max(200).nullable().optional(),
    type: UserAttributeType.optional(),
    defaultValue: UserAttributeValue.optional(),
  })
  .strict()
  .meta({ id: "UpdateUserAttributeInput" });

export const UserAttributeValueEntry = z
  .object({
    attributeId: z.number().int(),
    name: z.string(),
    type: UserAttributeType,
    value: UserAttributeValue,
    isDefault: z.boolean().meta({ description: "True when the user has no value of their own and the default applies." }),
  })
  .meta({ id: "UserAttributeValueEntry" });

export const UserAttributeValues = z.object({ userId: z.number().int(), values: z.array(UserAttributeValueEntry) }).meta({ id: "UserAttributeValues" });

export const SetUserAttributeValuesInput = z
  .object({
    userId: Id,
    values: z
      .array(
        z
          .object({
            name: z.string().regex(USER_ATTRIBUTE_NAME),
            value: UserAttributeValue.meta({ description: "Checked against the attribute's type; null clears the user's own value." }),
          })
          .strict(),
      )
      .min(1)
      .max(200),
  })
  .strict()
  .meta({ id: "SetUserAttributeValuesInput" });
