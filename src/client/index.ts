/**
 * The typed svc platform client (spec 9): `createSvcPlatformClient` over every operation of
 * the OpenAPI document, the resource types as `PlatformApiSchemas`, and helpers for cursor
 * pages and upserts. React hooks live in `svc/react-query`.
 */
export type { paths, operations, components, PlatformApiSchemas } from "./generated/schema";
export {
  createSvcPlatformClient,
  createSvcCloudClient,
  type SvcPlatformClient,
  type SvcPlatformClientConfig,
  type SvcPlatformHeaders,
  type SvcCloudClient,
  type SvcCloudClientConfig,
} from "./platform-client";
export { SvcPlatformApiError, asErrorBody, type SvcPlatformErrorBody } from "./api-error";
export { paginate, type PaginateOptions, type SvcPlatformListItem, type SvcPlatformListPath } from "./pagination";
export {
  isUpsertBranchChanged,
  retryUpsert,
  upsertWorkbookBySlug,
  type UpsertRetryOptions,
  type UpsertWorkbookBody,
  type UpsertWorkbookResult,
} from "./upsert";
