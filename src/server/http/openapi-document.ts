/**
 * The OpenAPI document (GET /api/v1/openapi.json, the same document at
 * /build/api/v1/openapi.json): generated from the route modules' zod schemas, then put in the
 * form third-party tools read correctly (decisions.md "OpenAPI document").
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./app-env";

type Json = Record<string, unknown>;

/** The spec's tags in its order (spec 1), then the platform's own; each with its description. */
export const OPENAPI_TAGS: { name: string; description: string }[] = [
  { name: "Deployments", description: "Deployments: a data source with its data model, and everything scoped to it." },
  { name: "Deployment Creation", description: "Creating and setting up deployments (build API)." },
  { name: "Environments", description: "A deployment's model environments: the default branch and each developer's dev-mode branch." },
  { name: "Env Variables", description: "A deployment's environment variables (secrets never returned)." },
  { name: "Regions", description: "The regions deployments can be placed in." },
  { name: "Data Model", description: "The data model as code: files, commits, pulls and merges (build API)." },
  { name: "Data Model Uploads", description: "Uploading a whole model folder by file hashes (build API)." },
  { name: "Git Host", description: "Git host app discovery through the caller's OAuth token: status, installations, repositories, branches." },
  { name: "Git Host Connection", description: "Connecting a deployment's model to a git repository." },
  { name: "Transformation-tool Sync", description: "Syncing cubes from a dbt project's manifest." },
  { name: "Folders", description: "Folders of reports and workbooks." },
  { name: "Reports", description: "Reports by id and public id." },
  { name: "Workbooks", description: "Workbooks and their dashboards." },
  { name: "Notifications", description: "Scheduled and alert notifications." },
  { name: "Workspace", description: "Listing, moving and deleting workspace items in bulk." },
  { name: "Users Admin", description: "Account users, login and sign-in links." },
  { name: "User Attributes", description: "User attributes (for access policies)." },
  { name: "User Attribute Values", description: "Values of user attributes per user." },
  { name: "Tenant Settings", description: "Account-wide settings: AI, embedding." },
  { name: "OAuth Integrations", description: "OAuth integrations (git hosts, identity providers)." },
  { name: "User OAuth Tokens", description: "Users' tokens of OAuth integrations." },
  { name: "OIDC Token Configs", description: "Trusted OIDC issuers whose tokens open embed sessions." },
  { name: "App Theme", description: "The embed app's theme." },
  { name: "Embed", description: "Signed embedding: sessions, tokens, signing keys and the embed's reads." },
  { name: "Embed Tenants", description: "Embed tenants, their groups and members." },
  { name: "Dashboard Embed Access", description: "Which embed tenants may view a dashboard." },
  { name: "AI", description: "The analytics chat and AI widgets." },
  { name: "Operations", description: "Health, cluster nodes, logs and other operational reads." },
];

/**
 * `allOf: [{$ref}, {type: [T, "null"]}]` — what the generator writes for a nullable
 * referenced schema, and which no `null` satisfies — becomes `anyOf: [{$ref}, {type: "null"}]`.
 */
function nullableRef(node: Json): Json | null {
  const all = node.allOf;
  if (!Array.isArray(all) || all.length !== 2) return null;
  const [ref, nullable] = all as Json[];
  if (typeof ref?.$ref !== "string" || !nullable || !Array.isArray(nullable.type) || !nullable.type.includes("null")) return null;
  const { type: _type, ...siblings } = nullable;
  const { allOf: _allOf, ...rest } = node;
  return { ...rest, ...siblings, anyOf: [ref, { type: "null" }] };
}

function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewrite);
  if (!value || typeof value !== "object") return value;
  const node = nullableRef(value as Json) ?? (value as Json);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, rewrite(v)]));
}

/** Answers the platform itself gives on any operation (app.ts, on-error.ts), declared once. */
const PLATFORM_RESPONSES = {
  PayloadTooLarge: "The body is larger than 1 MiB (`payload_too_large`).",
  UnsupportedMediaType: "The body is not of the declared media type (`unsupported_media_type`).",
  InternalError: "An unexpected failure (`internal_error`), without internals.",
  Unauthorized: "Credentials were sent but are malformed, expired or revoked (checked before any route, public ones too).",
};

/** Adds the platform's own answers to every operation: 401 (bad credentials), 413 and 415 where a body is taken, 500. */
function addPlatformResponses(doc: Json): void {
  const components = (doc.components ??= {}) as Json;
  const responses = (components.responses ??= {}) as Json;
  for (const [name, description] of Object.entries(PLATFORM_RESPONSES)) {
    responses[name] = { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  }
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const op of Object.values(item)) {
      const answers = (op.responses ??= {}) as Json;
      if (op.requestBody && !answers["413"]) answers["413"] = { $ref: "#/components/responses/PayloadTooLarge" };
      if (op.requestBody && !answers["415"]) answers["415"] = { $ref: "#/components/responses/UnsupportedMediaType" };
      if (!answers["401"]) answers["401"] = { $ref: "#/components/responses/Unauthorized" };
      if (!answers["500"]) answers["500"] = { $ref: "#/components/responses/InternalError" };
    }
  }
}

/** The generated document in its published form: nullable references, platform answers, tags, licence. */
export function normalizeOpenApiDocument(doc: object): Json {
  const out = rewrite(doc) as Json;
  addPlatformResponses(out);
  const used = new Set<string>();
  for (const item of Object.values((out.paths ?? {}) as Record<string, Record<string, { tags?: string[] }>>)) {
    for (const op of Object.values(item)) for (const tag of op?.tags ?? []) used.add(tag);
  }
  const tags = [...OPENAPI_TAGS, ...[...used].filter((t) => !OPENAPI_TAGS.some((d) => d.name === t)).map((name) => ({ name, description: name }))];
  // Key order of the published document: info, servers, tags, then the rest.
  const { openapi, info, servers, ...rest } = out;
  return { openapi, info, servers, tags, ...rest };
}

/** Serves the document at /api/v1/openapi.json and /build/api/v1/openapi.json. */
export function registerOpenApiDocument(app: OpenAPIHono<AppEnv>): void {
  for (const path of ["/api/v1/openapi.json", "/build/api/v1/openapi.json"]) {
    app.get(path, (c) => {
      const doc = app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "svc platform API",
          version: "1.0.0",
          description: "Management API of the svc embedded-analytics platform (/api/v1 and /build/api/v1).",
          license: { name: "Apache-2.0", url: "https://www.apache.org/licenses/LICENSE-2.0" },
        },
        servers: [{ url: new URL(c.req.url).origin }],
      });
      return c.json(normalizeOpenApiDocument(doc));
    });
  }
}
