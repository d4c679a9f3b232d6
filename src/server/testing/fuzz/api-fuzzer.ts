import fc from "fast-check";
import { DOMAIN_ERROR_CODES } from "../../domain/errors";
import { createLogger, type Logger } from "../../logger";
import type { TestPlatform } from "../test-platform";
import { FuzzWorld, poolOf, PRINCIPALS, type FuzzPrincipal } from "./fuzz-world";
import {
  HOSTILE_CURSORS,
  HOSTILE_HEADERS,
  HOSTILE_PATH_SEGMENTS,
  HOSTILE_QUERY_VALUES,
  HOSTILE_RAW_BODIES,
  deepValue,
  hostileKey,
  hostileNumber,
  hostileText,
  wrongType,
  PoolRef,
  RawJson,
} from "./hostile-values";
import { operationsOf, validValue, type OpenApiDocument, type OperationSpec } from "./openapi-arbitraries";

/** What a request changes: one hostile part at a time, several at once, or nothing (a valid request). */
type Mode = "valid" | "body" | "params" | "query" | "headers" | "raw-body" | "mixed";

/** The modes an operation is tried in, weighted towards the parts it has. */
function modesOf(op: OperationSpec): Mode[] {
  const has = (where: string) => op.params.some((p) => p.in === where);
  return [
    ...Array<Mode>(2).fill("valid"),
    ...Array<Mode>(op.body ? 5 : 1).fill("body"),
    ...Array<Mode>(has("path") ? 2 : 0).fill("params"),
    ...Array<Mode>(has("query") ? 2 : 1).fill("query"),
    "headers",
    ...Array<Mode>(op.body ? 1 : 0).fill("raw-body"),
    "mixed",
  ];
}

/**
 * One bad value put into a valid body: bad text where text goes, a bad number where a number
 * goes, deep nesting or a wrong type anywhere, a bad key in an object. Landing on a value of the
 * type the field expects keeps the rest of the request valid, so the bad value travels as far as it can.
 */
interface Mutation {
  kind: "text" | "number" | "deep" | "type" | "key";
  at: number;
  value: unknown;
}

interface RequestCase {
  op: OperationSpec;
  principal: FuzzPrincipal;
  mode: Mode;
  path: Record<string, unknown>;
  pathRaw: Record<string, string | null>;
  query: Record<string, unknown>;
  queryRaw: [string, string][];
  body: unknown;
  mutations: Mutation[];
  rawBody: string | Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
}

export interface FuzzOptions {
  /** Requests in all, to operations drawn at random. */
  runs?: number;
  /** Instead of `runs`: this many requests to every operation in turn (each operation is covered). */
  perOperation?: number;
  seed: number;
  principals?: readonly FuzzPrincipal[];
  /** A request that has not answered after this long is a finding. */
  timeoutMs?: number;
  /** Called after each request, e.g. for progress output. */
  onRequest?: (done: number) => void;
  /** Called with each request and its answer (`--trace` of the script). */
  onAnswer?: (line: string) => void;
}

export interface FuzzFinding {
  operation: string;
  problem: string;
  count: number;
  example: {
    method: string;
    url: string;
    principal: FuzzPrincipal;
    mode: Mode;
    headers: Record<string, string>;
    body: string;
    status: number | null;
    response: string;
    serverError?: string;
  };
}

export interface FuzzReport {
  requests: number;
  findings: FuzzFinding[];
  statuses: Record<string, number>;
  /** Time spent sending requests and in the harness (healing the world, pools, checksums). */
  harnessMs: Record<string, number>;
  /** Per operation and mode, how often each status came back: shows how deep the requests got. */
  coverage: Record<string, Record<string, number>>;
  operations: number;
  durationMs: number;
}

/** A logger that keeps the last error the server logged, so a 500 can be reported with its cause. */
export function recordingLogger(): Logger & { lastError: string | null } {
  const logger = {
    lastError: null as string | null,
    ...createLogger("error", (line) => {
      const entry = JSON.parse(line) as { error?: string; msg: string };
      logger.lastError = (entry.error ?? entry.msg).split("\n").slice(0, 6).join("\n");
    }),
  };
  return logger;
}

// The admin reaches the most code; the others mostly meet the access checks.
const PRINCIPAL_WEIGHTS: FuzzPrincipal[] = ["admin", "admin", "admin", "admin", "admin", "viewer", "viewer", "embed", "embed", "anonymous"];
const ALLOWED_CODES = new Set<string>(DOMAIN_ERROR_CODES);
const preview = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("text" as const), at: fc.nat(), value: hostileText }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("number" as const), at: fc.nat(), value: hostileNumber }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("deep" as const), at: fc.nat(), value: deepValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("type" as const), at: fc.nat(), value: wrongType }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("key" as const), at: fc.nat(), value: hostileKey }) },
);

function caseArbitrary(doc: OpenApiDocument, op: OperationSpec, principals: readonly FuzzPrincipal[]): fc.Arbitrary<RequestCase> {
  const pathParams = op.params.filter((p) => p.in === "path");
  const queryParams = op.params.filter((p) => p.in === "query");
  const queryNames = [...queryParams.map((p) => p.name), "first", "after", "unknown"];
  return fc.record({
    op: fc.constant(op),
    principal: fc.constantFrom(...PRINCIPAL_WEIGHTS.filter((p) => principals.includes(p))),
    mode: fc.constantFrom(...modesOf(op)),
    path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, validValue(doc, p.schema, poolOf, p.name)]))),
    pathRaw: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, fc.option(fc.constantFrom(...HOSTILE_PATH_SEGMENTS), { nil: null, freq: 2 })]))),
    query: fc.record(Object.fromEntries(queryParams.map((p) => [p.name, validValue(doc, p.schema, poolOf, p.name)])), {
      requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
    }),
    queryRaw: fc.array(
      fc.oneof(
        fc.tuple(fc.constantFrom(...queryNames), fc.constantFrom(...HOSTILE_QUERY_VALUES)),
        fc.tuple(fc.constant("after"), fc.constantFrom(...HOSTILE_CURSORS)),
      ),
      { minLength: 1, maxLength: 2 },
    ),
    body: op.body ? validValue(doc, op.body.schema, poolOf) : fc.constant(undefined),
    // One bad value most of the time: a second one often stops the request before the first is tried.
    mutations: fc.oneof(
      { weight: 4, arbitrary: fc.tuple(mutation).map((m) => [...m]) },
      { weight: 1, arbitrary: fc.array(mutation, { minLength: 2, maxLength: 3 }) },
    ),
    rawBody: fc.constantFrom(...HOSTILE_RAW_BODIES),
    headers: fc.constantFrom(...HOSTILE_HEADERS),
  });
}

/** A deep copy with pool references replaced by live values. */
function resolve(value: unknown, pools: Record<string, unknown[]>): unknown {
  if (value instanceof PoolRef) {
    const pool = pools[value.pool] ?? [];
    return pool.length ? pool[value.n % pool.length] : value.fallback;
  }
  if (value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map((v) => resolve(v, pools));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, pools)]));
  return value;
}

type Slot = { parent: Record<string, unknown> | unknown[] | null; key: string | number };

function slotsOf(value: unknown): Slot[] {
  const out: Slot[] = [{ parent: null, key: "" }];
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      v.forEach((child, i) => {
        out.push({ parent: v, key: i });
        stack.push(child);
      });
    } else if (v && typeof v === "object" && !(v instanceof RawJson)) {
      for (const [k, child] of Object.entries(v)) {
        out.push({ parent: v as Record<string, unknown>, key: k });
        stack.push(child);
      }
    }
  }
  return out;
}

const valueAt = (root: unknown, s: Slot) => (s.parent === null ? root : (s.parent as Record<string | number, unknown>)[s.key]);
const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v) && !(v instanceof RawJson);

const TARGET: Record<Mutation["kind"], (v: unknown) => boolean> = {
  text: (v) => typeof v === "string",
  number: (v) => typeof v === "number",
  deep: (v) => typeof v === "object" && v !== null,
  type: () => true,
  key: isPlainObject,
};

/** The body with each mutation applied at a slot of the type it aims at (any slot when there is none; rarely the whole body). */
function mutate(body: unknown, mutations: Mutation[]): unknown {
  let root = body;
  for (const original of mutations) {
    // A copy: the hostile constants are shared between runs and must not be mutated in place.
    const m = { ...original, value: resolve(original.value, {}) };
    const inner = slotsOf(root).slice(1);
    const aimed = inner.filter((s) => TARGET[m.kind](valueAt(root, s)));
    if (m.kind === "key") {
      // Nested objects first: the top level of most bodies refuses unknown keys.
      const nested = aimed.length && m.at % 4 !== 0 ? valueAt(root, aimed[m.at % aimed.length]!) : undefined;
      const target = isPlainObject(nested) ? nested : isPlainObject(root) ? root : undefined;
      if (target) Object.defineProperty(target, String(m.value), { value: "v", enumerable: true, configurable: true, writable: true });
      continue;
    }
    const candidates = aimed.length ? aimed : inner;
    if (!candidates.length || m.at % 16 === 0) root = m.value;
    else {
      const slot = candidates[m.at % candidates.length]!;
      (slot.parent as Record<string | number, unknown>)[slot.key] = m.value;
    }
  }
  return root;
}

/** JSON text with raw pieces (deep nesting, numbers beyond a double) spliced in. */
function serialize(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v: unknown) => (v instanceof RawJson ? `__svc_raw_${raws.push(v.text) - 1}__` : v)) ?? "null";
  return text.replace(/"__svc_raw_(\d+)__"/g, (_m, i: string) => raws[Number(i)]!);
}

function buildRequest(c: RequestCase, world: FuzzWorld) {
  const hostile = (part: Mode) => c.mode === part || c.mode === "mixed";
  const path = resolve(c.path, world.pools) as Record<string, unknown>;
  const url = c.op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const raw = c.pathRaw[name];
    return hostile("params") && raw != null ? raw : encodeURIComponent(String(path[name]));
  });
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(resolve(c.query, world.pools) as Record<string, unknown>)) {
    if (v !== undefined) query.append(k, typeof v === "object" ? JSON.stringify(v) : String(v));
  }
  let qs = query.toString();
  if (hostile("query")) qs += (qs ? "&" : "") + c.queryRaw.map(([k, v]) => `${k}=${v}`).join("&");

  const headers: Record<string, string> = {};
  if (c.principal !== "anonymous") headers.authorization = `Bearer ${world.tokens[c.principal]}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (hostile("raw-body")) body = c.rawBody;
  else if (hostile("body")) body = serialize(mutate(resolve(c.body, world.pools), c.mutations));
  else if (c.op.body && c.body !== undefined) body = serialize(resolve(c.body, world.pools));
  // A GET or HEAD request cannot carry a body (the Fetch API refuses to build one).
  if (c.op.method === "GET") body = undefined;
  if (body !== undefined) headers["content-type"] = "application/json";
  if (hostile("headers")) Object.assign(headers, c.headers);
  return { url: qs ? `${url}?${qs}` : url, init: { method: c.op.method, headers, body } };
}

/** Nesting depth of JSON text (brackets outside strings), counted without recursion. */
function textDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") max = Math.max(max, ++depth);
    else if (ch === "}" || ch === "]") depth--;
  }
  return max;
}

/**
 * What the input policy must refuse in this request, or null: NUL in the query string, JSON
 * nested deeper than 64, NUL or an unpaired surrogate anywhere in a JSON body. Checked on its
 * own terms (not with the server's code): `JSON.stringify` escapes exactly NUL and lone surrogates.
 */
function policyViolation(req: ReturnType<typeof buildRequest>): string | null {
  const qs = req.url.includes("?") ? req.url.slice(req.url.indexOf("?") + 1) : "";
  for (const [k, v] of new URLSearchParams(qs)) if ((k + v).includes("\u0000")) return "NUL in the query string";
  const type = req.init.headers["content-type"] ?? "";
  const body = req.init.body;
  if (typeof body !== "string" || !/json/i.test(type)) return null;
  if (textDepth(body) > 64) return "JSON nested deeper than 64";
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  return /\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(JSON.stringify(value)) ? "NUL or an unpaired surrogate in the body" : null;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * Sends generated requests to every operation of the app's own OpenAPI document, as each kind
 * of caller, valid ones and hostile ones, and reports every answer that breaks the rules: a 5xx
 * (or no answer), a 4xx without the error body or with a code outside DOMAIN_ERROR_CODES, a
 * `validation_failed` without the paths in `details`, a request carrying text or nesting the
 * input policy refuses that was accepted, and a refused request that changed the database.
 */
export async function fuzzApi(t: TestPlatform, logger: { lastError: string | null }, opts: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const docRes = await t.app.request("/api/v1/openapi.json");
  const doc = (await docRes.json()) as OpenApiDocument;
  const ops = operationsOf(doc);
  const principals = opts.principals ?? PRINCIPALS;
  const world = new FuzzWorld(t);
  await world.init();

  const arbitraries = new Map(ops.map((op) => [op.id, caseArbitrary(doc, op, principals)]));
  const anyCase = fc.constantFrom(...ops.map((o) => o.id)).chain((id) => arbitraries.get(id)!);
  const findings = new Map<string, FuzzFinding>();
  const statuses: Record<string, number> = {};
  const coverage: Record<string, Record<string, number>> = {};
  let done = 0;

  const report = (c: RequestCase, problem: string, req: ReturnType<typeof buildRequest>, status: number | null, response: string) => {
    const key = `${c.op.id} | ${problem}`;
    const existing = findings.get(key);
    if (existing) {
      existing.count++;
      return;
    }
    const body = req.init.body === undefined ? "" : typeof req.init.body === "string" ? req.init.body : `bytes ${Buffer.from(req.init.body).toString("hex")}`;
    findings.set(key, {
      operation: c.op.id,
      problem,
      count: 1,
      example: {
        method: c.op.method,
        url: preview(req.url),
        principal: c.principal,
        mode: c.mode,
        headers: Object.fromEntries(Object.entries(req.init.headers).map(([k, v]) => [k, k === "authorization" ? preview(v, 40) : preview(v, 80)])),
        body: preview(JSON.stringify(body).slice(1, -1)),
        status,
        response: preview(response),
        ...(status !== null && status >= 500 && logger.lastError ? { serverError: logger.lastError } : {}),
      },
    });
  };

  let needsHeal = false;
  const harness = { heal: 0, pools: 0, checksum: 0, requests: 0 };
  const runCase = async (c: RequestCase) => {
    // A request may have deleted the deployment, revoked a key or demoted the admin.
    const h0 = performance.now();
    if (needsHeal) await world.heal();
    harness.heal += performance.now() - h0;
    needsHeal = false;
    const p0 = performance.now();
    if (done % 20 === 0) await world.refreshPools();
    harness.pools += performance.now() - p0;
    const b0 = performance.now();
    const req = buildRequest(c, world);
    const writes = c.op.method !== "GET";
    // Background work an earlier request started (a dbt sync) writes on its own time: it has
    // settled before the database is compared around this request.
    if (writes) await world.backgroundSettled();
    const before = writes ? await world.checksum() : null;
    harness.checksum += performance.now() - b0;
    logger.lastError = null;
    let res: Response | "timeout";
    const sent = performance.now();
    try {
      res = await withTimeout(Promise.resolve(t.app.request(req.url, req.init)), opts.timeoutMs ?? 15_000);
    } catch (err) {
      report(c, `request threw ${err instanceof Error ? err.name : "error"}`, req, null, String(err));
      return;
    } finally {
      done++;
      opts.onRequest?.(done);
    }
    harness.requests += performance.now() - sent;
    if (res === "timeout") {
      report(c, "no answer", req, null, "");
      needsHeal = true;
      return;
    }
    const text = await res.text();
    const took = Math.round(performance.now() - sent);
    const shown = preview(String(req.init.body ?? ""), 160);
    opts.onAnswer?.(`${took} ms ${c.op.method} ${preview(req.url, 120)} [${c.mode} as ${c.principal}] ${shown} → ${res.status} ${preview(text, 200)}`);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    const cov = (coverage[c.op.id] ??= {});
    const key = `${c.mode}:${c.principal}:${res.status}`;
    cov[key] = (cov[key] ?? 0) + 1;
    if (writes && res.status < 400) needsHeal = true;
    let parsed: { code?: unknown; message?: unknown; details?: unknown } | null = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const code = typeof parsed?.code === "string" ? parsed.code : null;
    if (res.status >= 500) report(c, `${res.status} ${code ?? "(no code)"}`, req, res.status, text);
    if (res.status < 400) {
      const violation = policyViolation(req);
      if (violation) report(c, `${res.status} accepted ${violation}`, req, res.status, text);
      return;
    }
    if (!parsed || code === null || typeof parsed.message !== "string") report(c, `${res.status} without {code, message}`, req, res.status, text);
    else if (!ALLOWED_CODES.has(code)) report(c, `${res.status} code '${code}' is not a domain error code`, req, res.status, text);
    else if (code === "validation_failed" && !Array.isArray(parsed.details)) report(c, "validation_failed without details", req, res.status, text);
    if (before) {
      const a0 = performance.now();
      const after = await world.checksum();
      harness.checksum += performance.now() - a0;
      const changed = [...after].filter(([table, h]) => before.get(table) !== h).map(([table]) => table);
      if (changed.length) report(c, `${res.status} changed ${changed.join(", ")}`, req, res.status, text);
      // Whatever a failed request did, the next one starts from a working platform.
      if (res.status >= 500) needsHeal = true;
    }
  };

  const property = (arb: fc.Arbitrary<RequestCase>) =>
    fc.asyncProperty(arb, async (c) => {
      await runCase(c);
      return true;
    });
  try {
    if (opts.perOperation) {
      // Every operation in turn, each with its own seed derived from the run's seed.
      for (const [i, op] of ops.entries()) {
        await fc.assert(property(arbitraries.get(op.id)!), { seed: opts.seed + i, numRuns: opts.perOperation, endOnFailure: true });
      }
    } else {
      await fc.assert(property(anyCase), { seed: opts.seed, numRuns: opts.runs ?? 1000, endOnFailure: true });
    }
  } finally {
    world.close();
  }
  return {
    requests: done,
    findings: [...findings.values()].sort((a, b) => a.operation.localeCompare(b.operation) || a.problem.localeCompare(b.problem)),
    statuses,
    coverage,
    harnessMs: Object.fromEntries(Object.entries(harness).map(([k, v]) => [k, Math.round(v)])),
    operations: ops.length,
    durationMs: Math.round(performance.now() - started),
  };
}

/** Findings as readable text, one block each. */
export function formatFindings(findings: FuzzFinding[]): string {
  return findings
    .map((f) => {
      const e = f.example;
      const lines = [
        `${f.operation}: ${f.problem} (${f.count}×)`,
        `  ${e.method} ${e.url}  as ${e.principal} [${e.mode}]`,
        `  headers ${JSON.stringify(e.headers)}`,
        e.body ? `  body ${e.body}` : null,
        `  → ${e.status ?? "-"} ${e.response}`,
        e.serverError ? `  server: ${e.serverError.replace(/\n/g, "\n          ")}` : null,
      ];
      return lines.filter(Boolean).join("\n");
    })
    .join("\n\n");
}
