import { z } from "zod";
import { acceptingReadBack, Name, SafeText, Timestamp } from "./common";
import { IssuerUrl } from "./oidc-token-config";

/** An https URL (http only on localhost), without query or fragment. */
const EndpointUrl = IssuerUrl;
const Scope = z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,200}$/, "must be an OAuth scope token");

const fields = {
  name: Name,
  provider: Name.max(64).meta({ description: "github, gitea, google, … (free text)." }),
  clientId: SafeText.min(1).max(512),
  clientSecret: SafeText.min(1).max(4096).nullable().meta({ description: "Write-only: sealed at rest, never returned. null: a public client (PKCE only)." }),
  authorizationUrl: EndpointUrl,
  tokenUrl: EndpointUrl,
  revocationUrl: EndpointUrl.nullable(),
  scopes: z.array(Scope).max(50),
  redirectUri: SafeText.max(2048)
    .pipe(z.url({ protocol: /^https?$/ }))
    .meta({ description: "Where the authorization server sends the user back; defaults to {publicUrl}/api/v1/user-oauth-tokens/callback." }),
  apiBaseUrl: EndpointUrl.nullable().meta({
    description: "API base of the host for git host discovery (https://api.github.com, https://ghe.example.com/api/v3, https://gitea.example.com/api/v1).",
  }),
};

export const OAuthIntegrationInput = z
  .object({
    ...fields,
    clientSecret: fields.clientSecret.optional(),
    revocationUrl: fields.revocationUrl.optional(),
    scopes: fields.scopes.default([]),
    redirectUri: fields.redirectUri.optional(),
    apiBaseUrl: fields.apiBaseUrl.optional(),
  })
  .strict()
  .meta({ id: "OAuthIntegrationInput" });
export type OAuthIntegrationInput = z.infer<typeof OAuthIntegrationInput>;

export const OAuthIntegration = z
  .object({
    id: z.number().int(),
    name: z.string(),
    provider: z.string(),
    clientId: z.string(),
    hasClientSecret: z.boolean(),
    authorizationUrl: z.string(),
    tokenUrl: z.string(),
    revocationUrl: z.string().nullable(),
    scopes: z.array(z.string()),
    redirectUri: z.string(),
    apiBaseUrl: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "OAuthIntegration" });
export type OAuthIntegration = z.infer<typeof OAuthIntegration>;

export const OAuthIntegrationUpdate = acceptingReadBack(
  z
    .object(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]> })
    .strict(),
  OAuthIntegration,
  "OAuthIntegrationUpdate",
  "The fields sent replace the stored ones; clientSecret left out keeps the stored one.",
);
export type OAuthIntegrationUpdate = z.infer<typeof OAuthIntegrationUpdate>;

export const UserOAuthConnection = z
  .object({
    integrationId: z.number().int(),
    integrationName: z.string(),
    provider: z.string(),
    scope: z.string().nullable(),
    expiresAt: Timestamp.nullable(),
    refreshable: z.boolean(),
    connectedAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "UserOAuthConnection", description: "A user's connection; the tokens themselves are never returned." });
export type UserOAuthConnection = z.infer<typeof UserOAuthConnection>;
