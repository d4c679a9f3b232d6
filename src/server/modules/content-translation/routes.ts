import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  ContentDictionary,
  ContentDictionaryFile,
  ContentDictionaryWriteResult,
  MissingTranslationReport,
  TranslationLocale,
  TranslationLocaleList,
} from "../../../schema/content-translation";
import { requireUser } from "../../http/auth";
import type { AppEnv } from "../../http/app-env";
import { commonErrors, conflictError, IdParam, jsonBody, jsonContent, notFoundError, security, type Router } from "../../http/openapi";
import { notFound } from "../../domain/errors";
import { getDeployment } from "../deployments/service";
import { modelDeps } from "../data-model/routes";
import { getDictionary, listDictionaries, missingTranslations, putDictionary } from "./service";

const BASE = "/api/v1/deployments/{deploymentId}/translations";
const params = z.object({ deploymentId: IdParam });
const localeParams = z.object({ deploymentId: IdParam, locale: TranslationLocale });
const errors = { ...commonErrors, ...notFoundError };
const tags = ["Content Translation"];

const list = createRoute({
  operationId: "listContentDictionaries",
  method: "get",
  path: BASE,
  tags,
  summary: "The locales with a content dictionary (translations/<locale>.yml on main)",
  security,
  request: { params },
  responses: { 200: jsonContent(TranslationLocaleList, "The dictionaries."), ...errors },
});

const read = createRoute({
  operationId: "getContentDictionary",
  method: "get",
  path: `${BASE}/{locale}`,
  tags,
  summary: "A locale's content dictionary",
  security,
  request: { params: localeParams },
  responses: { 200: jsonContent(ContentDictionaryFile, "The dictionary."), ...errors },
});

const write = createRoute({
  operationId: "putContentDictionary",
  method: "put",
  path: `${BASE}/{locale}`,
  tags,
  summary: "Replace a locale's content dictionary: one commit on main writing translations/<locale>.yml (a malformed dictionary changes nothing)",
  security,
  request: { params: localeParams, ...jsonBody(ContentDictionary) },
  responses: { 200: jsonContent(ContentDictionaryWriteResult, "The dictionary as written."), ...errors, ...conflictError },
});

const missing = createRoute({
  operationId: "getMissingTranslations",
  method: "get",
  path: `${BASE}/{locale}/missing`,
  tags,
  summary: "What a locale's dictionary lacks for the deployment's published dashboards and model (never values read from data)",
  security,
  request: { params: localeParams },
  responses: { 200: jsonContent(MissingTranslationReport, "The missing entries."), ...errors },
});

/** Dictionaries name the deployment's content: developers and admins only, as for the build API. */
async function developerOn(c: Context<AppEnv>, deploymentId: number) {
  const actor = requireUser(c, "developer");
  if (!(await getDeployment(c.get("deps").db, deploymentId))) throw notFound("Deployment");
  return actor;
}

export function registerContentTranslationRoutes(app: Router) {
  app.openapi(list, async (c) => {
    const { deploymentId } = c.req.valid("param");
    await developerOn(c, deploymentId);
    return c.json(await listDictionaries(c.get("deps").db, deploymentId), 200);
  });
  app.openapi(read, async (c) => {
    const { deploymentId, locale } = c.req.valid("param");
    await developerOn(c, deploymentId);
    return c.json(await getDictionary(c.get("deps").db, deploymentId, locale), 200);
  });
  app.openapi(write, async (c) => {
    const { deploymentId, locale } = c.req.valid("param");
    const actor = await developerOn(c, deploymentId);
    return c.json(await putDictionary(modelDeps(c), deploymentId, actor, locale, c.req.valid("json")), 200);
  });
  app.openapi(missing, async (c) => {
    const { deploymentId, locale } = c.req.valid("param");
    await developerOn(c, deploymentId);
    return c.json(await missingTranslations(c.get("deps").db, deploymentId, locale), 200);
  });
}
