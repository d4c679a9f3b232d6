/**
 * The OpenAPI document as a contract the in-process tests keep: every answer a test receives
 * through the test platform's `app.request` is checked against the operation the document
 * declares for its method and path (route template and status). JSON bodies are validated
 * with Ajv (JSON Schema draft 2020-12, formats on); streamed, CSV and binary bodies are not
 * read, only their content type is checked. A mismatch throws, so the test that made the
 * request fails with the operation, the status and Ajv's errors.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

type Json = Record<string, unknown>;
interface ResponseObject {
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  responses?: Record<string, ResponseObject>;
}
interface Route {
  template: string;
  method: string;
  pattern: RegExp;
  params: number;
  operation: Operation;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
/** Media types whose bodies are JSON documents the schema describes. */
const isJsonMedia = (type: string) => type === "application/json" || type.endsWith("+json");

export class ContractViolation extends Error {
  override name = "ContractViolation";
}

/** A checker of responses against one OpenAPI document. */
export interface ResponseContract {
  /** Throws a ContractViolation when `res` does not match the document; `res` itself is left unread. */
  check(method: string, url: string, res: Response): Promise<void>;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function createResponseContract(doc: Json): ResponseContract {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // The document itself is the schema root, so `#/components/schemas/…` references resolve.
  ajv.addSchema({ ...doc, $id: "openapi" });

  const routes: Route[] = [];
  for (const [template, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith("{") ? "([^/]+)" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
      .join("");
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      routes.push({ template, method, pattern: new RegExp(`^${source}$`), params: (template.match(/\{/g) ?? []).length, operation });
    }
  }
  // A literal segment wins over a parameter (`/workbooks/by-slug/{slug}` over `/workbooks/{id}/…`).
  routes.sort((a, b) => a.params - b.params);

  /** A local reference (`#/components/…`) of the document. */
  const resolve = (ref: string): unknown =>
    ref
      .slice(2)
      .split("/")
      .reduce<unknown>((node, key) => (node as Json | undefined)?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);

  const validators = new Map<string, ValidateFunction>();
  function validatorFor(pointer: string): ValidateFunction {
    let v = validators.get(pointer);
    if (!v) {
      v = ajv.compile({ $ref: `openapi#${pointer}` });
      validators.set(pointer, v);
    }
    return v;
  }

  return {
    async check(method, url, res) {
      const path = new URL(url, "http://localhost").pathname;
      const verb = method.toLowerCase();
      const route = routes.find((r) => r.method === verb && r.pattern.test(path));
      if (!route) return; // not an operation of the document (the embed app's pages, assets)
      if (res.status === 499) return; // the client went away: nobody receives this answer
      const where = `${method.toUpperCase()} ${route.template} → ${res.status}`;
      const responses = route.operation.responses ?? {};
      const statusKey =
        String(res.status) in responses ? String(res.status) : `${String(res.status)[0]}XX` in responses ? `${String(res.status)[0]}XX` : "default";
      const entry = responses[statusKey] as (ResponseObject & { $ref?: string }) | undefined;
      // The response object's own pointer: where its `content` schemas are.
      const at = entry?.$ref ? entry.$ref.slice(1) : `/paths/${escapePointer(route.template)}/${verb}/responses/${statusKey}`;
      const declared = entry?.$ref ? (resolve(entry.$ref) as ResponseObject | undefined) : entry;
      if (!declared) {
        throw new ContractViolation(`${where}: status not declared (declared: ${Object.keys(responses).join(", ")})`);
      }
      const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      const media = declared.content ?? {};
      if (Object.keys(media).length === 0) {
        if (res.body && (await res.clone().text()).length > 0) throw new ContractViolation(`${where}: a body where the document declares none`);
        return;
      }
      if (!(contentType in media)) {
        throw new ContractViolation(`${where}: content type "${contentType}" not declared (declared: ${Object.keys(media).join(", ")})`);
      }
      if (!isJsonMedia(contentType) || media[contentType]?.schema === undefined) return;
      const text = await res.clone().text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ContractViolation(`${where}: body is not JSON: ${text.slice(0, 200)}`);
      }
      const pointer = `${at}/content/${escapePointer(contentType)}/schema`;
      const validate = validatorFor(pointer);
      if (!validate(body)) {
        const errors = (validate.errors ?? [])
          .slice(0, 8)
          .map((e) => `  ${e.instancePath || "(root)"} ${e.message ?? ""} ${e.params ? JSON.stringify(e.params) : ""} [${e.schemaPath}]`)
          .join("\n");
        throw new ContractViolation(`${where}: body does not match the document\n${errors}\nbody: ${text.slice(0, 600)}`);
      }
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the app's own request signature, passed through unchanged
type Requester = (input: RequestInfo | URL, init?: RequestInit, ...rest: any[]) => Response | Promise<Response>;

/** One per test process: every app built by createApp serves the same document. */
let shared: Promise<ResponseContract> | undefined;

/**
 * Wraps an app's `request` so that every answer is checked against the app's own OpenAPI
 * document (`GET /api/v1/openapi.json`, read on the first request of the process).
 */
export function enforceResponseContract<A extends { request: Requester }>(app: A): A {
  const raw = app.request.bind(app) as Requester;
  const load = () => {
    shared ??= Promise.resolve(raw("http://localhost/api/v1/openapi.json")).then(async (res) => {
      if (!res.ok) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
      return createResponseContract((await res.json()) as Json);
    });
    shared.catch(() => (shared = undefined)); // a failed read is tried again by the next request
    return shared;
  };
  app.request = (async (input: RequestInfo | URL, init?: RequestInit, ...rest: never[]) => {
    const res = await raw(input, init, ...rest);
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const url = input instanceof Request ? input.url : String(input);
    await (await load()).check(method, url, res);
    return res;
  }) as A["request"];
  return app;
}
