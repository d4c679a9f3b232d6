import fc from "fast-check";
import { PoolRef } from "./hostile-values";

/** The subset of JSON Schema (OpenAPI 3.1) the generated document uses. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  security?: unknown[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One operation of the document, flattened. */
export interface OperationSpec {
  id: string;
  method: string;
  path: string;
  params: OpenApiParameter[];
  body: { required: boolean; schema: JsonSchema } | null;
}

export function operationsOf(doc: OpenApiDocument): OperationSpec[] {
  const out: OperationSpec[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "put", "post", "patch", "delete"].includes(method)) continue;
      const json = op.requestBody?.content["application/json"];
      out.push({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: json ? { required: op.requestBody?.required ?? false, schema: json.schema } : null,
      });
    }
  }
  return out;
}

/**
 * Which pool of live values a field draws from, by its name: an id field draws existing ids of
 * the matching table, a name-like string draws words the platform knows (slugs, members…).
 */
export type PoolOf = (fieldName: string | null, schema: JsonSchema) => string | null;

const MAX_DEPTH = 5;
// Pools are newest first: the newest deployment, workbook, folder… most often, so that ids of
// different kinds in one request tend to belong together.
const poolIndex = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat() });
const MAX_STRING = 40;

/**
 * Valid values of a schema (as far as the schema says; the services check more). Recursion
 * through `$ref` stops at MAX_DEPTH by dropping optional fields and using the shortest arrays.
 */
export function validValue(doc: OpenApiDocument, schema: JsonSchema, poolOf: PoolOf, fieldName: string | null = null, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const name = schema.$ref.replace("#/components/schemas/", "");
    const target = doc.components?.schemas?.[name];
    if (!target) return fc.constant({});
    return validValue(doc, target, poolOf, fieldName, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    // Deep down, the first branch (the non-recursive one in this document's recursive unions).
    if (depth >= MAX_DEPTH) return validValue(doc, branches[0]!, poolOf, fieldName, depth + 1);
    return fc.oneof(...branches.map((b) => validValue(doc, b, poolOf, fieldName, depth + 1)));
  }
  if (schema.allOf) return validValue(doc, Object.assign({}, ...schema.allOf), poolOf, fieldName, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((t) => validValue(doc, { ...schema, type: t }, poolOf, fieldName, depth)));
  const type = types[0];
  const pool = poolOf(fieldName, schema);
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
    case "number": {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (type === "integer" ? 1 : Number.EPSILON) : -1_000_000);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (type === "integer" ? 1 : Number.EPSILON) : 1_000_000);
      // Small values near the low end of the range (a range may start above 20).
      const small = fc.integer({ min: Math.max(min, -5), max: Math.max(Math.min(max, 20), Math.max(min, -5)) });
      const any =
        type === "integer" ? fc.integer({ min: Math.max(min, -2_147_483_648), max: Math.min(max, 2_147_483_647) }) : fc.double({ min, max, noNaN: true });
      if (!pool) return fc.oneof(small, any);
      // Mostly ids that exist, so that requests get past "not found".
      return fc.oneof({ weight: 1, arbitrary: small }, { weight: 1, arbitrary: any }, { weight: 6, arbitrary: poolIndex.map((n) => new PoolRef(pool, n, 1)) });
    }
    case "string":
      return stringValue(schema, pool);
    case "array": {
      const item = schema.items ? validValue(doc, schema.items, poolOf, fieldName, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      if (schema.prefixItems) return fc.tuple(...schema.prefixItems.map((s) => validValue(doc, s, poolOf, fieldName, depth + 1)));
      const minLength = schema.minItems ?? 0;
      const maxLength = depth >= MAX_DEPTH ? minLength : Math.max(minLength, Math.min(schema.maxItems ?? 3, 3));
      return fc.array(item, { minLength, maxLength });
    }
    case "object":
    case undefined: {
      if (type === undefined && !schema.properties) return fc.jsonValue({ maxDepth: 2 });
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const keys = Object.keys(props).filter((k) => required.has(k) || depth < MAX_DEPTH);
      const record = fc.record(Object.fromEntries(keys.map((k) => [k, validValue(doc, props[k]!, poolOf, k, depth + 1)])), {
        requiredKeys: keys.filter((k) => required.has(k)),
      });
      if (schema.additionalProperties === false || Object.keys(props).length) return record;
      // A free-form object (meta, securityContext…): a few keys of any JSON.
      const extra =
        schema.additionalProperties && typeof schema.additionalProperties === "object" && Object.keys(schema.additionalProperties).length
          ? validValue(doc, schema.additionalProperties, poolOf, null, depth + 1)
          : fc.jsonValue({ maxDepth: 2 });
      return fc.dictionary(fc.string({ maxLength: 12 }), extra, { maxKeys: depth >= MAX_DEPTH ? 0 : 4 });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function stringValue(schema: JsonSchema, pool: string | null): fc.Arbitrary<unknown> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Infinity;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength;
  let base: fc.Arbitrary<string>;
  switch (schema.format) {
    case "email":
      base = fc.emailAddress().filter(fits);
      break;
    case "uri":
      base = fc.webUrl().filter(fits);
      break;
    case "date-time":
      base = fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
      break;
    case "uuid":
      base = fc.uuid();
      break;
    default:
      if (schema.pattern) {
        const re = new RegExp(schema.pattern);
        base = fc.stringMatching(re).filter(fits);
      } else {
        base = fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, MAX_STRING)), unit: "grapheme" });
      }
  }
  if (!pool) return base;
  // Named pools (slugs, public ids…) are what the field means; the general word pool is a guess.
  const poolWeight = pool === "word" ? 1 : 4;
  return fc.oneof({ weight: 2, arbitrary: base }, { weight: poolWeight, arbitrary: poolIndex.map((n) => new PoolRef(pool, n, "x")) });
}
