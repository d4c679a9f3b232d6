import { createRoute, z } from "@hono/zod-openapi";
import { FillMissingRows, PeriodComparison } from "../../../schema/dashboard";
import { requirePrincipal, requireUser } from "../../http/auth";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { badRequest } from "../../domain/errors";
import { QueryValidationError, semanticQuerySchema, type QueryFilter } from "../../semantic";
import { assertEmbedDeploymentAccess, securityContextOf } from "../embed-access/service";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env";

const MemberFilter = z
  .strictObject({
    member: z.string(),
    operator: z.string().meta({ description: "equals, notEquals, contains, …, inDateRange (docs/data-model.md)." }),
    values: z.array(z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()])).max(10_000).optional(),
  })
  .meta({ id: "MemberFilter" });

// The semantic layer's filter schema is recursive through an anonymous z.lazy, which the
// OpenAPI generator cannot follow; the same shape with named components becomes $refs.
const QueryFilterDoc: z.ZodType<QueryFilter> = z
  .lazy(() => z.union([MemberFilter, z.strictObject({ or: z.array(QueryFilterDoc).min(1) }), z.strictObject({ and: z.array(QueryFilterDoc).min(1) })]))
  .meta({ id: "QueryFilter" }) as unknown as z.ZodType<QueryFilter>;

const SemanticQuery = semanticQuerySchema.extend({ filters: z.array(QueryFilterDoc).max(500).optional() }).meta({
  id: "SemanticQuery",
  description: "A semantic query: members are `<view>.<member>` (docs/data-model.md).",
});

const QueryInput = z
  .object({
    query: SemanticQuery,
    fillMissingRows: FillMissingRows.nullable().optional(),
    periodComparisons: z.array(PeriodComparison).max(20).nullable().optional(),
    cache: z.enum(["default", "bypass"]).optional().meta({ description: "`bypass` re-runs the query (a refresh); the fresh result is cached." }),
  })
  .strict()
  .meta({ id: "QueryInput" });

const MemberAnnotation = z.object({
  title: z.string(),
  shortTitle: z.string(),
  type: z.string(),
  format: z.string().optional(),
}).passthrough();

const QueryResult = z
  .object({
    data: z.array(z.record(z.string(), z.unknown())),
    annotation: z
      .object({
        measures: z.record(z.string(), MemberAnnotation),
        dimensions: z.record(z.string(), MemberAnnotation),
        timeDimensions: z.record(z.string(), MemberAnnotation),
      })
      .passthrough(),
    fromCache: z.boolean(),
  })
  .meta({ id: "QueryResult" });

const CompiledSql = z
  .object({ sql: z.string(), params: z.array(z.union([z.string(), z.number(), z.boolean()])) })
  .meta({ id: "CompiledSql" });

const ValuesInput = z
  .object({
    member: z.string().min(3).max(200),
    search: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  })
  .strict()
  .meta({ id: "DistinctValuesInput" });

const Meta = z
  .object({
    sources: z.array(
      z
        .object({
          name: z.string(),
          kind: z.enum(["view", "cube"]),
          title: z.string(),
          description: z.string().optional(),
          measures: z.array(z.object({ name: z.string(), title: z.string(), type: z.string() }).passthrough()),
          dimensions: z.array(z.object({ name: z.string(), title: z.string(), type: z.string() }).passthrough()),
        })
        .passthrough(),
    ),
  })
  .meta({ id: "DataModelMeta" });

const params = z.object({ deploymentId: IdParam });
const errors = {
  ...commonErrors,
  ...notFoundError,
  503: jsonContent(z.object({ code: z.literal("datasource_unavailable"), message: z.string() }), "The data source cannot be reached."),
  504: jsonContent(z.object({ code: z.literal("query_timeout"), message: z.string() }), "The query ran too long and was cancelled."),
};

const load = createRoute({
  operationId: "runQuery",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/query",
  tags: ["Data Model"],
  summary: "Run a semantic query (row-level security applies)",
  security,
  request: { params, ...jsonBody(QueryInput) },
  responses: { 200: jsonContent(QueryResult, "Rows and member annotations."), ...errors },
});

const sql = createRoute({
  operationId: "compileQuery",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/query/sql",
  tags: ["Data Model"],
  summary: "The SQL a query compiles to, without running it (platform users)",
  security,
  request: { params, ...jsonBody(QueryInput) },
  responses: { 200: jsonContent(CompiledSql, "Compiled SQL with bound parameters."), ...commonErrors, ...notFoundError },
});

const values = createRoute({
  operationId: "distinctValues",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/query/values",
  tags: ["Data Model"],
  summary: "Distinct values of a dimension, for filter pickers (row-level security applies)",
  security,
  request: { params, ...jsonBody(ValuesInput) },
  responses: { 200: jsonContent(z.object({ values: z.array(z.unknown()) }).meta({ id: "DistinctValues" }), "Values."), ...errors },
});

const meta = createRoute({
  operationId: "getDataModelMeta",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/meta",
  tags: ["Data Model"],
  summary: "Views and members the caller can query",
  security,
  request: { params },
  responses: { 200: jsonContent(Meta, "Views and their members."), ...commonErrors, ...notFoundError },
});

const OPTION_KEYS = new Set(["fillMissingRows", "periodComparisons"]);

/**
 * The engine reports paths inside the query (or its options); the API names them inside the
 * request body, as its own validation does: `["measures", 0]` → `["query", "measures", 0]`.
 */
async function withBodyPaths<T>(run: () => Promise<T> | T, queryKey: string | null = "query"): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof QueryValidationError)) throw e;
    const details = e.details.map((d) => ({
      ...d,
      path: queryKey === null || OPTION_KEYS.has(String(d.path[0])) ? d.path : [queryKey, ...d.path],
    }));
    throw badRequest(e.message, details);
  }
}

async function engineFor(c: Context<AppEnv>, deploymentId: number) {
  const principal = requirePrincipal(c);
  assertEmbedDeploymentAccess(principal, deploymentId);
  const deps = c.get("deps");
  const engine = await deps.queryEngines.get(deploymentId);
  const securityContext = await securityContextOf(principal, deps.db);
  return { engine, securityContext };
}

export function registerQueryRoutes(app: Router) {
  app.openapi(load, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const { engine, securityContext } = await engineFor(c, deploymentId);
    const result = await withBodyPaths(() => engine.load(body.query, {
      securityContext,
      bypassCache: body.cache === "bypass",
      fillMissingRows: body.fillMissingRows,
      periodComparisons: body.periodComparisons,
      // The query is cancelled in the database when the client goes away.
      signal: c.req.raw.signal,
      timeoutMs: c.get("deps").queryEngines.queryTimeoutMs,
    }));
    return c.json({ data: result.data, annotation: result.annotation, fromCache: result.fromCache }, 200);
  });

  app.openapi(sql, async (c) => {
    requireUser(c);
    const { deploymentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const { engine, securityContext } = await engineFor(c, deploymentId);
    const compiled = await withBodyPaths(() => engine.sql(body.query, { securityContext, fillMissingRows: body.fillMissingRows, periodComparisons: body.periodComparisons }));
    return c.json(compiled, 200);
  });

  app.openapi(values, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const { engine, securityContext } = await engineFor(c, deploymentId);
    const list = await withBodyPaths(
      () => engine.distinctValues(body.member, { search: body.search, limit: body.limit }, { securityContext, signal: c.req.raw.signal, timeoutMs: c.get("deps").queryEngines.queryTimeoutMs }),
      null,
    );
    return c.json({ values: list }, 200);
  });

  app.openapi(meta, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const { engine, securityContext } = await engineFor(c, deploymentId);
    return c.json(engine.meta(securityContext), 200);
  });
}
