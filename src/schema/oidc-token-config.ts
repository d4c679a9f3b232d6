import { z } from "zod";
import { acceptingReadBack, Name, SafeText, Timestamp } from "./common";
import { UserRole } from "./user";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An issuer URL: https, or http on a loopback host only (a local issuer); no query, no fragment. */
export const IssuerUrl = SafeText.max(2048).refine(
  (v) => {
    try {
      const u = new URL(v);
      if (u.search || u.hash || u.username || u.password) return false;
      return u.protocol === "https:" || (u.protocol === "http:" && LOOPBACK.has(u.hostname));
    } catch {
      return false;
    }
  },
  { message: "must be an https URL (http only on localhost), without query or fragment" },
);

const ClaimName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_:.-]{0,127}$/, "must be a claim name");
const ClaimValue = z.union([SafeText.max(1024), z.number(), z.boolean()]);

const fields = {
  name: Name,
  issuer: IssuerUrl.meta({ description: "The `iss` of the tokens; keys are read from its OpenID discovery document (`jwks_uri`)." }),
  audience: SafeText.min(1).max(1024).meta({ description: "The `aud` the token must carry." }),
  claims: z
    .record(ClaimName, ClaimValue)
    .refine((r) => Object.keys(r).length <= 32, "at most 32 claims")
    .meta({ description: "Every listed claim must equal its value (or, for an array claim, contain it)." }),
  role: UserRole.meta({ description: "The role the workload acts with." }),
};

export const OidcTokenConfigInput = z
  .object({ ...fields, claims: fields.claims.default({}) })
  .strict()
  .meta({ id: "OidcTokenConfigInput" });
export type OidcTokenConfigInput = z.infer<typeof OidcTokenConfigInput>;

export const OidcTokenConfig = z
  .object({
    id: z.number().int(),
    name: z.string(),
    issuer: z.string(),
    audience: z.string(),
    claims: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    role: UserRole,
    userId: z.number().int().meta({ description: "The service user the workload acts as." }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "OidcTokenConfig" });
export type OidcTokenConfig = z.infer<typeof OidcTokenConfig>;

export const OidcTokenConfigUpdate = acceptingReadBack(
  z
    .object({
      name: fields.name.optional(),
      issuer: fields.issuer.optional(),
      audience: fields.audience.optional(),
      claims: fields.claims.optional(),
      role: fields.role.optional(),
    })
    .strict(),
  OidcTokenConfig,
  "OidcTokenConfigUpdate",
);
export type OidcTokenConfigUpdate = z.infer<typeof OidcTokenConfigUpdate>;
