import type { MiddlewareHandler } from "hono";
import { jsonProblem, jsonTextDepth, MAX_JSON_DEPTH, textProblem } from "../../schema/common";
import { badRequest } from "../domain/errors";
import type { AppEnv } from "./app-env";

const JSON_MEDIA_TYPE = /json/i;

const describe = (path: (string | number)[]) => (path.length ? `${path.join(".")}: ` : "");

/**
 * The edge of the input policy (docs/decisions.md "Hostile input"), before any route runs:
 * - a query string with NUL in a name or value is refused (400 `validation_failed`, the
 *   parameter in `details`);
 * - a JSON body is read as text and its nesting measured on the raw text, without recursion,
 *   before it is parsed: deeper than MAX_JSON_DEPTH is refused naming the limit, so nothing
 *   recursive (validation, merging, canonical hashing, Postgres' jsonb) ever sees it;
 * - malformed JSON is refused with `details` like every other validation error;
 * - a parsed body with NUL or an unpaired surrogate in any key or string is refused with the
 *   JSON path of the first one.
 * The route's validator then parses the same text again (Hono caches the text, not the value).
 */
export function inputPolicy(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    for (const [name, values] of Object.entries(c.req.queries())) {
      for (const text of [name, ...values]) {
        const problem = textProblem(text);
        if (problem) {
          throw badRequest(`Invalid query parameter: ${name}: ${problem}`, [{ path: [name], message: problem, code: "unsafe_text" }]);
        }
      }
    }

    const type = c.req.header("content-type");
    if (c.req.method === "GET" || c.req.method === "HEAD" || !type || !JSON_MEDIA_TYPE.test(type) || !c.req.raw.body) return next();
    const text = await c.req.text();
    if (!text.trim()) return next();
    if (jsonTextDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      const message = `nested deeper than ${MAX_JSON_DEPTH} levels`;
      throw badRequest(`Invalid request body: JSON ${message}`, [{ path: [], message, code: "too_deep" }]);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest("Malformed JSON in request body", [{ path: [], message: "not valid JSON", code: "invalid_json" }]);
    }
    const problem = jsonProblem(value);
    if (problem) {
      const details = [{ path: problem.path, message: problem.message, code: problem.code }];
      throw badRequest(`Invalid request body: ${describe(problem.path)}${problem.message}`, details);
    }
    await next();
  };
}
