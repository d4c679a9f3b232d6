import { createRoute, z } from "@hono/zod-openapi";
import {
  CompiledSqlSchema,
  ContentLocale,
  DataModelMetaSchema,
  DistinctValuesInputSchema,
  DistinctValuesSchema,
  ExplainInputSchema,
  ExplainResultSchema,
  QueryBatchInputSchema,
  QueryBatchLineSchema,
  QueryInputSchema,
  QueryResultSchema,
} from "../../../schema/semantic-query";
import { requireActor, requirePrincipal } from "../../http/auth";
import { commonErrors, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { badRequest } from "../../domain/errors";
import { errorItemOf } from "../../http/on-error";
import { explainChange, QueryValidationError } from "../../semantic";
import { assertEmbedDeploymentAccess, securityContextOf } from "../embed-access/service";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env";
import { BranchName } from "../../../schema/data-model-build";
import { branchEngine } from "../data-model/service";
import { contentLocaleOf, distinctValueLabels, metaInLocale, resultTranslator } from "../content-translation/apply";
import { assertExportAllowed } from "../embed-exports/service";

const params = z.object({ deploymentId: IdParam });
/** `branch=`: run on a branch's model instead of production (developers; default the caller's dev branch in dev mode). */
const branchQuery = z.object({ branch: BranchName.optional() });
/** `rollups=bypass`: read the cubes' rows even where a built rollup covers the query (docs/data-model.md "Rollups"). */
const loadQuery = branchQuery.extend({
  rollups: z.enum(["bypass"]).optional().meta({ description: "`bypass`: answer from the cubes' rows, not from a rollup." }),
});
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
  request: { params, query: loadQuery, ...jsonBody(QueryInputSchema) },
  responses: { 200: jsonContent(QueryResultSchema, "Rows and member annotations."), ...errors },
  description:
    "With `export.format`, an embed session whose export grant leaves the format out gets 403 `export_format_not_allowed` and the query does not run.",
});

const batch = createRoute({
  operationId: "runQueryBatch",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/query/batch",
  tags: ["Data Model"],
  summary: "Run several semantic queries in one request (a dashboard's widgets), each answer streamed as it finishes",
  description:
    "Each query runs as `runQuery` would run it, under the caller's row-level security, all at once. The answer is " +
    "newline-delimited JSON, one `QueryBatchLine` per query in the order they finish: its index in the request, the " +
    "status `runQuery` would have answered, and its body (the rows, or the error). A refused query does not stop the others.",
  security,
  request: { params, query: loadQuery, ...jsonBody(QueryBatchInputSchema) },
  responses: {
    200: {
      description: "One `QueryBatchLine` per line.",
      content: { "application/x-ndjson": { schema: QueryBatchLineSchema } },
    },
    ...commonErrors,
    ...notFoundError,
  },
});

const sql = createRoute({
  operationId: "compileQuery",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/query/sql",
  tags: ["Data Model"],
  summary: "The SQL a query compiles to, without running it (platform users)",
  security,
  request: { params, query: branchQuery, ...jsonBody(QueryInputSchema) },
  responses: { 200: jsonContent(CompiledSqlSchema, "Compiled SQL with bound parameters."), ...commonErrors, ...notFoundError },
});

const values = createRoute({
  operationId: "distinctValues",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/query/values",
  tags: ["Data Model"],
  summary: "Distinct values of a dimension, for filter pickers (row-level security applies)",
  security,
  request: { params, query: branchQuery, ...jsonBody(DistinctValuesInputSchema) },
  responses: { 200: jsonContent(DistinctValuesSchema, "Values."), ...errors },
});

const explain = createRoute({
  operationId: "explainChange",
  method: "post",
  path: "/api/v1/deployments/{deploymentId}/query/explain",
  tags: ["Data Model"],
  summary: "Which dimension values moved a measure most between two date ranges (row-level security applies)",
  description:
    "Runs the measure over `baseline` and `current` (as a `compare` query) in total and by each candidate dimension, " +
    "and answers the values ranked by the absolute size of their change, each with its share of the total change.",
  security,
  request: { params, query: branchQuery, ...jsonBody(ExplainInputSchema) },
  responses: { 200: jsonContent(ExplainResultSchema, "The total change and its largest contributors."), ...errors },
});

const meta = createRoute({
  operationId: "getDataModelMeta",
  method: "get",
  path: "/api/v1/deployments/{deploymentId}/meta",
  tags: ["Data Model"],
  summary: "Views and members the caller can query",
  security,
  request: {
    params,
    query: branchQuery.extend({
      locale: ContentLocale.optional().meta({
        description:
          "Titles of views and members in this locale, from the model's translations (docs/translation.md); else the session's `settings.locale`, else the model's own.",
      }),
    }),
  },
  responses: { 200: jsonContent(DataModelMetaSchema, "Views and their members."), ...commonErrors, ...notFoundError },
});

const OPTION_KEYS = new Set(["fillMissingRows", "periodComparisons"]);

/**
 * The engine reports paths inside the query (or its options); the API names them inside the
 * request body, as its own validation does: `["measures", 0]` → `["query", "measures", 0]`.
 */
async function withBodyPaths<T>(run: () => Promise<T> | T, queryKey: string | null = "query", prefix: (string | number)[] = []): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof QueryValidationError)) throw e;
    const details = e.details.map((d) => ({
      ...d,
      path: [...prefix, ...(queryKey === null || OPTION_KEYS.has(String(d.path[0])) ? d.path : [queryKey, ...d.path])],
    }));
    throw badRequest(e.message, details);
  }
}

async function engineFor(c: Context<AppEnv>, deploymentId: number) {
  const principal = requirePrincipal(c);
  assertEmbedDeploymentAccess(principal, deploymentId);
  const deps = c.get("deps");
  const branch = c.req.query("branch");
  const onBranch = await branchEngine(deps, deploymentId, principal.kind === "user" ? principal : null, branch);
  const engine = onBranch ?? (await deps.queryEngines.get(deploymentId));
  const securityContext = await securityContextOf(principal, deps.db);
  return { engine, securityContext, principal };
}

export function registerQueryRoutes(app: Router) {
  app.openapi(load, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const { engine, securityContext, principal } = await engineFor(c, deploymentId);
    // Rows for an export: only in a format the embed session grants (before anything runs).
    if (body.export) assertExportAllowed(principal, body.export.format);
    const translate = await resultTranslator(c.get("deps").db, deploymentId, contentLocaleOf(principal, body.locale));
    const result = await withBodyPaths(() =>
      engine.load(body.query, {
        securityContext,
        bypassCache: body.cache === "bypass",
        fillMissingRows: body.fillMissingRows,
        periodComparisons: body.periodComparisons,
        useRollups: c.req.valid("query").rollups !== "bypass",
        // The query is cancelled in the database when the client goes away.
        signal: c.req.raw.signal,
        timeoutMs: c.get("deps").queryEngines.queryTimeoutMs,
      }),
    );
    const shown = translate(result);
    return c.json({ data: shown.data, annotation: shown.annotation, fromCache: result.fromCache }, 200);
  });

  app.openapi(batch, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const { queries } = c.req.valid("json");
    const { engine, securityContext, principal } = await engineFor(c, deploymentId);
    const deps = c.get("deps");
    const signal = c.req.raw.signal;
    // One read of the dictionaries for the batch; queries of one batch may still ask for different locales.
    const translators = new Map<string | null, Awaited<ReturnType<typeof resultTranslator>>>();
    for (const item of queries) {
      const locale = contentLocaleOf(principal, item.locale);
      if (!translators.has(locale)) translators.set(locale, await resultTranslator(deps.db, deploymentId, locale));
    }
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let left = queries.length;
        const write = (line: unknown) => {
          if (signal.aborted) return;
          try {
            controller.enqueue(encoder.encode(JSON.stringify(line) + "\n"));
            if (--left === 0) controller.close();
          } catch {
            // The reader went away: nothing is waiting for the rest.
          }
        };
        queries.forEach((item, index) => {
          withBodyPaths(
            () => {
              if (item.export) assertExportAllowed(principal, item.export.format);
              return engine.load(item.query, {
                securityContext,
                bypassCache: item.cache === "bypass",
                fillMissingRows: item.fillMissingRows,
                periodComparisons: item.periodComparisons,
                useRollups: c.req.valid("query").rollups !== "bypass",
                signal,
                timeoutMs: deps.queryEngines.queryTimeoutMs,
              });
            },
            "query",
            ["queries", index],
          ).then(
            (result) => {
              const shown = translators.get(contentLocaleOf(principal, item.locale))!(result);
              write({ index, status: 200, body: { data: shown.data, annotation: shown.annotation, fromCache: result.fromCache } });
            },
            (error: unknown) => write({ index, ...errorItemOf(error, c, deps.logger) }),
          );
        });
      },
    });
    // Streamed: each line as its query finishes. The typed route answers JSON; this one is NDJSON.
    return new Response(body, {
      status: 200,
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
    }) as never;
  });

  app.openapi(sql, async (c) => {
    const { deploymentId } = c.req.valid("param");
    // Platform users, and embed creators (the app shows a report's SQL when app-config says so).
    await requireActor(c, deploymentId);
    const body = c.req.valid("json");
    const { engine, securityContext } = await engineFor(c, deploymentId);
    const compiled = await withBodyPaths(() =>
      engine.sql(body.query, { securityContext, fillMissingRows: body.fillMissingRows, periodComparisons: body.periodComparisons }),
    );
    return c.json(compiled, 200);
  });

  app.openapi(values, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const { engine, securityContext, principal } = await engineFor(c, deploymentId);
    const list = await withBodyPaths(
      () =>
        engine.distinctValues(
          body.member,
          { search: body.search, limit: body.limit },
          { securityContext, signal: c.req.raw.signal, timeoutMs: c.get("deps").queryEngines.queryTimeoutMs },
        ),
      null,
    );
    const labels = await distinctValueLabels(c.get("deps").db, deploymentId, contentLocaleOf(principal, body.locale), engine.model, body.member, list);
    return c.json({ values: list, ...(labels ? { labels: { ...labels } } : {}) }, 200);
  });

  app.openapi(explain, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const { engine, securityContext } = await engineFor(c, deploymentId);
    const result = await withBodyPaths(
      () => explainChange(engine, body, { securityContext, signal: c.req.raw.signal, timeoutMs: c.get("deps").queryEngines.queryTimeoutMs }),
      null,
    );
    return c.json(result, 200);
  });

  app.openapi(meta, async (c) => {
    const { deploymentId } = c.req.valid("param");
    const { engine, securityContext, principal } = await engineFor(c, deploymentId);
    const { sources } = engine.meta(securityContext);
    const db = c.get("deps").db;
    const locale = contentLocaleOf(principal, c.req.valid("query").locale);
    return c.json({ sources: await metaInLocale(db, deploymentId, locale, sources) }, 200);
  });
}
