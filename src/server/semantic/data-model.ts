import { z } from "zod";
import { LineCounter, parseDocument, isNode, type Document } from "yaml";
import { DataModelError, type DataModelProblem } from "./errors";
import { filterOperators, type QueryFilter } from "../../schema/semantic-query";
import { platformRoles, type PlatformRole } from "./security-context";
import { isDictionaryFile, parseDictionaryFile } from "./dictionary-file";
import { checkRollup, rollupSchema, type RawRollup, type Rollup } from "./rollup-definition";

export const IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
// Postgres truncates identifiers at 63 bytes; result columns are named
// "<view>.<member>.<granularity>", so the member part must leave room for ".quarter".
const MAX_QUALIFIED_NAME = 54;

export type DimensionType = "string" | "number" | "boolean" | "time";
export type MeasureType = "count" | "count_distinct" | "sum" | "avg" | "min" | "max" | "number";
export type MemberFormat = "currency" | "percent" | "number";
export type JoinRelationship = "many_to_one" | "one_to_many" | "one_to_one";

export interface Dimension {
  kind: "dimension";
  name: string;
  sql: string;
  type: DimensionType;
  primaryKey: boolean;
  title: string;
  description?: string;
  format?: MemberFormat;
  meta?: Record<string, unknown>;
}

export interface Measure {
  kind: "measure";
  name: string;
  sql?: string;
  type: MeasureType;
  title: string;
  description?: string;
  format?: MemberFormat;
  /** SQL conditions (AND-ed) a row must meet to count in this measure. */
  filters: string[];
  meta?: Record<string, unknown>;
}

export interface Join {
  name: string;
  relationship: JoinRelationship;
  sql: string;
}

/** A row-level filter of a policy: same shape as a query filter, values may be templates. */
export type PolicyFilter = QueryFilter;

export interface AccessPolicy {
  /** "*" matches every viewer; otherwise the viewer needs one of these groups. */
  groups?: "*" | string[];
  /** The viewer's platform role must be one of these. */
  roles?: PlatformRole[];
  /** Rows visible under this policy; `allowAll` (or no filters) means every row. */
  rowLevel: { allowAll: boolean; filters: PolicyFilter[] };
}

export interface Cube {
  kind: "cube";
  name: string;
  title: string;
  description?: string;
  sqlTable?: string;
  sql?: string;
  public: boolean;
  joins: Map<string, Join>;
  dimensions: Map<string, Dimension>;
  measures: Map<string, Measure>;
  /** undefined = open to everyone. */
  accessPolicy?: AccessPolicy[];
  file: string;
}

export interface ViewMember {
  /** Name inside the view (prefixed when the view entry says `prefix: true`). */
  name: string;
  kind: "dimension" | "measure";
  cube: string;
  member: string;
  /** Cube names from the view's root cube to `cube`. */
  joinPath: string[];
  title: string;
  shortTitle: string;
}

export interface View {
  kind: "view";
  name: string;
  title: string;
  description?: string;
  public: boolean;
  rootCube: string;
  members: Map<string, ViewMember>;
  accessPolicy?: AccessPolicy[];
  file: string;
}

export interface DataModel {
  cubes: Map<string, Cube>;
  views: Map<string, View>;
  /** Pre-aggregations queries may be answered from (docs/data-model.md "Rollups"). */
  rollups: Map<string, Rollup>;
}

export interface DataModelFile {
  path: string;
  content: string;
}

const identifier = z.string().regex(IDENTIFIER, "must match ^[_a-zA-Z][_a-zA-Z0-9]*$");
const formatSchema = z.enum(["currency", "percent", "number"]);

const policyFilterSchema: z.ZodType<QueryFilter> = z.lazy(() =>
  z.union([
    z.strictObject({
      member: z.string(),
      operator: z.enum(filterOperators),
      values: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
    z.strictObject({ or: z.array(policyFilterSchema).min(1) }),
    z.strictObject({ and: z.array(policyFilterSchema).min(1) }),
  ]),
);

const accessPolicySchema = z
  .array(
    z
      .strictObject({
        group: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
        role: z.union([z.enum(platformRoles), z.array(z.enum(platformRoles)).min(1)]).optional(),
        row_level: z
          .strictObject({
            allow_all: z.boolean().optional(),
            filters: z.array(policyFilterSchema).optional(),
          })
          .optional(),
      })
      .refine((p) => p.group !== undefined || p.role !== undefined, {
        message: 'a policy needs `group` ("*" for everyone) or `role`',
      }),
  )
  .optional();

const cubeSchema = z.strictObject({
  name: identifier,
  title: z.string().optional(),
  description: z.string().optional(),
  sql_table: z.string().optional(),
  sql: z.string().optional(),
  public: z.boolean().optional(),
  joins: z
    .array(
      z.strictObject({
        name: identifier,
        relationship: z.enum(["many_to_one", "one_to_many", "one_to_one"]),
        sql: z.string().min(1),
      }),
    )
    .optional(),
  dimensions: z
    .array(
      z.strictObject({
        name: identifier,
        sql: z.string().min(1),
        type: z.enum(["string", "number", "boolean", "time"]),
        primary_key: z.boolean().optional(),
        title: z.string().optional(),
        description: z.string().optional(),
        format: formatSchema.optional(),
        meta: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional(),
  measures: z
    .array(
      z.strictObject({
        name: identifier,
        sql: z.string().min(1).optional(),
        type: z.enum(["count", "count_distinct", "sum", "avg", "min", "max", "number"]),
        title: z.string().optional(),
        description: z.string().optional(),
        format: formatSchema.optional(),
        filters: z.array(z.strictObject({ sql: z.string().min(1) })).optional(),
        meta: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional(),
  access_policy: accessPolicySchema,
});

const viewSchema = z.strictObject({
  name: identifier,
  title: z.string().optional(),
  description: z.string().optional(),
  public: z.boolean().optional(),
  cubes: z
    .array(
      z.strictObject({
        join_path: z.string().min(1),
        includes: z.union([z.literal("*"), z.array(identifier)]).optional(),
        excludes: z.array(identifier).optional(),
        prefix: z.boolean().optional(),
      }),
    )
    .min(1),
  access_policy: accessPolicySchema,
});

const fileSchema = z.strictObject({
  cubes: z.array(cubeSchema).optional(),
  views: z.array(viewSchema).optional(),
  rollups: z.array(rollupSchema).optional(),
});

type RawCube = z.infer<typeof cubeSchema>;
type RawView = z.infer<typeof viewSchema>;
type RawPolicy = NonNullable<z.infer<typeof accessPolicySchema>>[number];

/** `{CUBE}`, `{member}`, `{cube}` or `{cube.member}` inside model SQL. */
export const SQL_REFERENCE = /\{\s*([_a-zA-Z][_a-zA-Z0-9]*)(?:\.([_a-zA-Z][_a-zA-Z0-9]*))?\s*\}/g;

/** "created_at" → "Created At". */
export function humanizeName(name: string): string {
  return name
    .split("_")
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

interface SourceFile {
  path: string;
  doc: Document;
  lines: LineCounter;
}

function lineOf(src: SourceFile, path: (string | number)[]): number | undefined {
  // Walk up until a node with a position exists (the exact key may be missing).
  for (let p = path; p.length >= 0; p = p.slice(0, -1)) {
    const node = p.length === 0 ? src.doc.contents : src.doc.getIn(p, true);
    if (isNode(node) && node.range) return src.lines.linePos(node.range[0]).line;
    if (p.length === 0) return undefined;
  }
  return undefined;
}

/**
 * Parses and checks the YAML data model files. Throws `DataModelError` listing every
 * problem (file, YAML path, line) when anything is wrong; the model is all or nothing.
 * Content dictionaries (`translations/<locale>.yml`, docs/translation.md) are checked here too
 * and are no part of the model.
 */
export function loadDataModel(files: DataModelFile[]): DataModel {
  const problems: DataModelProblem[] = [];
  const report = (src: SourceFile, path: (string | number)[], message: string) => problems.push({ file: src.path, path, line: lineOf(src, path), message });

  const rawCubes: { raw: RawCube; src: SourceFile; path: (string | number)[] }[] = [];
  const rawViews: { raw: RawView; src: SourceFile; path: (string | number)[] }[] = [];
  const rawRollups: { raw: RawRollup; src: SourceFile; path: (string | number)[] }[] = [];

  for (const file of files) {
    // Content dictionaries live beside the model and are checked with it (all or nothing).
    if (isDictionaryFile(file.path)) {
      const read = parseDictionaryFile(file);
      if (!read.ok) problems.push(...read.problems);
      continue;
    }
    const lines = new LineCounter();
    const doc = parseDocument(file.content, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    const src: SourceFile = { path: file.path, doc, lines };
    if (doc.errors.length > 0) {
      for (const e of doc.errors) {
        problems.push({
          file: file.path,
          path: [],
          line: lines.linePos(e.pos[0]).line,
          message: `YAML syntax: ${e.message.split("\n")[0]}`,
        });
      }
      continue;
    }
    let js: unknown;
    try {
      // The yaml library counts alias expansions (a "billion laughs" file is refused) and
      // throws for it; that is the file's problem, not the server's.
      js = doc.toJS({ maxAliasCount: 100 }) ?? {};
    } catch (err) {
      problems.push({ file: file.path, path: [], line: 1, message: `YAML: ${(err as Error).message.split("\n")[0]}` });
      continue;
    }
    const parsed = fileSchema.safeParse(js);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.path.map((k) => (typeof k === "symbol" ? String(k) : k));
        report(src, path, issue.message);
      }
      continue;
    }
    parsed.data.cubes?.forEach((raw, i) => rawCubes.push({ raw, src, path: ["cubes", i] }));
    parsed.data.views?.forEach((raw, i) => rawViews.push({ raw, src, path: ["views", i] }));
    parsed.data.rollups?.forEach((raw, i) => rawRollups.push({ raw, src, path: ["rollups", i] }));
  }

  const cubes = new Map<string, Cube>();
  const views = new Map<string, View>();
  const cubeSources = new Map<string, { src: SourceFile; path: (string | number)[]; raw: RawCube }>();

  for (const { raw, src, path } of rawCubes) {
    if (cubes.has(raw.name)) {
      report(src, [...path, "name"], `duplicate cube name "${raw.name}"`);
      continue;
    }
    if ((raw.sql_table === undefined) === (raw.sql === undefined)) {
      report(src, path, `cube "${raw.name}" needs exactly one of sql_table and sql`);
    }
    if (raw.sql_table !== undefined && !/^[_a-zA-Z][_a-zA-Z0-9$]*(\.[_a-zA-Z][_a-zA-Z0-9$]*){0,2}$/.test(raw.sql_table)) {
      report(src, [...path, "sql_table"], `sql_table "${raw.sql_table}" must be a (schema-qualified) table name`);
    }
    const cube: Cube = {
      kind: "cube",
      name: raw.name,
      title: raw.title ?? humanizeName(raw.name),
      description: raw.description,
      sqlTable: raw.sql_table,
      sql: raw.sql,
      public: raw.public ?? true,
      joins: new Map(),
      dimensions: new Map(),
      measures: new Map(),
      accessPolicy: raw.access_policy ? raw.access_policy.map(toAccessPolicy) : undefined,
      file: src.path,
    };
    const memberNames = new Set<string>();
    raw.dimensions?.forEach((d, i) => {
      if (memberNames.has(d.name)) return report(src, [...path, "dimensions", i, "name"], `duplicate member name "${d.name}" in cube "${raw.name}"`);
      memberNames.add(d.name);
      cube.dimensions.set(d.name, {
        kind: "dimension",
        name: d.name,
        sql: d.sql,
        type: d.type,
        primaryKey: d.primary_key ?? false,
        title: d.title ?? humanizeName(d.name),
        description: d.description,
        format: d.format,
        meta: d.meta,
      });
    });
    raw.measures?.forEach((m, i) => {
      if (memberNames.has(m.name)) return report(src, [...path, "measures", i, "name"], `duplicate member name "${m.name}" in cube "${raw.name}"`);
      memberNames.add(m.name);
      if (m.sql === undefined && m.type !== "count") {
        report(src, [...path, "measures", i], `measure "${m.name}" of type ${m.type} needs sql`);
      }
      cube.measures.set(m.name, {
        kind: "measure",
        name: m.name,
        sql: m.sql,
        type: m.type,
        title: m.title ?? humanizeName(m.name),
        description: m.description,
        format: m.format,
        filters: (m.filters ?? []).map((f) => f.sql),
        meta: m.meta,
      });
    });
    raw.joins?.forEach((j, i) => {
      if (cube.joins.has(j.name)) return report(src, [...path, "joins", i, "name"], `duplicate join "${j.name}"`);
      cube.joins.set(j.name, { name: j.name, relationship: j.relationship, sql: j.sql });
    });
    if (cube.name.length > MAX_QUALIFIED_NAME) report(src, [...path, "name"], "name is too long");
    cubes.set(cube.name, cube);
    cubeSources.set(cube.name, { src, path, raw });
  }

  // Cross-cube checks: join targets, SQL references, cycles.
  for (const cube of cubes.values()) {
    const { src, path, raw } = cubeSources.get(cube.name)!;
    raw.joins?.forEach((j, i) => {
      if (!cubes.has(j.name)) {
        report(src, [...path, "joins", i, "name"], `join target "${j.name}" is not a cube`);
        return;
      }
      for (const ref of j.sql.matchAll(SQL_REFERENCE)) {
        const [, head, tail] = ref;
        if (tail !== undefined || (head !== "CUBE" && head !== cube.name && head !== j.name)) {
          report(src, [...path, "joins", i, "sql"], `join sql may reference only {CUBE}, {${cube.name}} and {${j.name}}, not ${ref[0]}`);
        }
      }
    });
    raw.dimensions?.forEach((d, i) => {
      checkMemberSql(d.sql, cube, "dimension", (m) => report(src, [...path, "dimensions", i, "sql"], m));
      if (`${cube.name}.${d.name}`.length > MAX_QUALIFIED_NAME) report(src, [...path, "dimensions", i, "name"], "name is too long");
    });
    raw.measures?.forEach((m, i) => {
      if (m.sql) checkMemberSql(m.sql, cube, m.type === "number" ? "number" : "measure", (msg) => report(src, [...path, "measures", i, "sql"], msg));
      m.filters?.forEach((f, k) => checkMemberSql(f.sql, cube, "dimension", (msg) => report(src, [...path, "measures", i, "filters", k, "sql"], msg)));
    });
    cube.accessPolicy?.forEach((p, i) =>
      checkPolicyMembers(
        p,
        (name) => {
          const local = name.startsWith(`${cube.name}.`) ? name.slice(cube.name.length + 1) : name;
          return cube.dimensions.has(local);
        },
        (msg, k) => report(src, [...path, "access_policy", i, "row_level", "filters", k], msg),
      ),
    );
  }
  for (const cycle of findJoinCycles(cubes)) {
    const { src, path } = cubeSources.get(cycle[0]!)!;
    report(src, [...path, "joins"], `join cycle: ${cycle.join(" → ")} → ${cycle[0]}`);
  }

  for (const { raw, src, path } of rawViews) {
    if (views.has(raw.name) || cubes.has(raw.name)) {
      report(src, [...path, "name"], `duplicate name "${raw.name}" (views and cubes share one namespace)`);
      continue;
    }
    const view: View = {
      kind: "view",
      name: raw.name,
      title: raw.title ?? humanizeName(raw.name),
      description: raw.description,
      public: raw.public ?? true,
      rootCube: "",
      members: new Map(),
      accessPolicy: raw.access_policy ? raw.access_policy.map(toAccessPolicy) : undefined,
      file: src.path,
    };
    const cubeAt = new Map<string, string>();
    raw.cubes.forEach((entry, i) => {
      const at = [...path, "cubes", i];
      const segments = entry.join_path.split(".");
      if (!segments.every((s) => IDENTIFIER.test(s))) return report(src, [...at, "join_path"], `bad join_path "${entry.join_path}"`);
      const root = segments[0]!;
      if (!cubes.has(root)) return report(src, [...at, "join_path"], `unknown cube "${root}" in join_path`);
      if (view.rootCube === "") view.rootCube = root;
      else if (view.rootCube !== root) return report(src, [...at, "join_path"], `every join_path of a view starts at the same cube ("${view.rootCube}")`);
      let current = cubes.get(root)!;
      for (const seg of segments.slice(1)) {
        if (!current.joins.has(seg) || !cubes.has(seg)) return report(src, [...at, "join_path"], `cube "${current.name}" has no join "${seg}"`);
        current = cubes.get(seg)!;
      }
      const previous = cubeAt.get(current.name);
      if (previous !== undefined && previous !== entry.join_path) {
        return report(src, [...at, "join_path"], `cube "${current.name}" is reached by two join paths ("${previous}", "${entry.join_path}")`);
      }
      cubeAt.set(current.name, entry.join_path);
      const all = [...current.dimensions.keys(), ...current.measures.keys()];
      const includes = entry.includes === undefined || entry.includes === "*" ? all : entry.includes;
      const excludes = new Set(entry.excludes ?? []);
      if (Array.isArray(entry.includes)) {
        entry.includes.forEach((name, k) => {
          if (!all.includes(name)) report(src, [...at, "includes", k], `unknown member "${name}" in cube "${current.name}"`);
        });
      }
      entry.excludes?.forEach((name, k) => {
        if (!all.includes(name)) report(src, [...at, "excludes", k], `unknown member "${name}" in cube "${current.name}"`);
      });
      for (const name of includes) {
        if (excludes.has(name) || !all.includes(name)) continue;
        const def = current.dimensions.get(name) ?? current.measures.get(name)!;
        const viewName = entry.prefix ? `${current.name}_${name}` : name;
        if (view.members.has(viewName)) {
          report(src, at, `duplicate member "${viewName}" in view "${raw.name}"`);
          continue;
        }
        if (`${raw.name}.${viewName}`.length > MAX_QUALIFIED_NAME) report(src, at, `member name "${raw.name}.${viewName}" is too long`);
        view.members.set(viewName, {
          name: viewName,
          kind: def.kind,
          cube: current.name,
          member: name,
          joinPath: segments,
          title: entry.prefix ? joinTitles(current.title, def.title) : def.title,
          shortTitle: def.title,
        });
      }
    });
    // A member's own title is its short title unless another member of the view has the same one
    // ("Name" of customers and of products): those keep the prefixed title.
    const titleCounts = new Map<string, number>();
    for (const m of view.members.values()) titleCounts.set(m.shortTitle, (titleCounts.get(m.shortTitle) ?? 0) + 1);
    for (const m of view.members.values()) if ((titleCounts.get(m.shortTitle) ?? 0) > 1) m.shortTitle = m.title;
    view.accessPolicy?.forEach((p, i) =>
      checkPolicyMembers(
        p,
        (name) => {
          const local = name.startsWith(`${view.name}.`) ? name.slice(view.name.length + 1) : name;
          return view.members.get(local)?.kind === "dimension";
        },
        (msg, k) => report(src, [...path, "access_policy", i, "row_level", "filters", k], msg),
      ),
    );
    views.set(view.name, view);
  }

  const rollups = new Map<string, Rollup>();
  for (const { raw, src, path } of rawRollups) {
    if (rollups.has(raw.name)) {
      report(src, [...path, "name"], `duplicate rollup name "${raw.name}"`);
      continue;
    }
    const rollup = checkRollup(raw, cubes, src.path, (at, message) => report(src, [...path, ...at], message));
    if (rollup) rollups.set(rollup.name, rollup);
  }

  if (problems.length > 0) throw new DataModelError(problems);
  return { cubes, views, rollups };
}

function toAccessPolicy(raw: RawPolicy): AccessPolicy {
  return {
    groups: raw.group === undefined ? undefined : raw.group === "*" ? "*" : typeof raw.group === "string" ? [raw.group] : raw.group,
    roles: raw.role === undefined ? undefined : typeof raw.role === "string" ? [raw.role] : raw.role,
    rowLevel: {
      allowAll: raw.row_level === undefined || raw.row_level.allow_all === true || (raw.row_level.filters ?? []).length === 0,
      filters: raw.row_level?.filters ?? [],
    },
  };
}

function checkPolicyMembers(policy: AccessPolicy, exists: (name: string) => boolean, report: (msg: string, index: number) => void) {
  const walk = (f: QueryFilter, index: number) => {
    if ("or" in f) f.or.forEach((g) => walk(g, index));
    else if ("and" in f) f.and.forEach((g) => walk(g, index));
    else if (!exists(f.member)) report(`policy filter member "${f.member}" is not a dimension here`, index);
  };
  policy.rowLevel.filters.forEach(walk);
}

function checkMemberSql(sql: string, cube: Cube, context: "dimension" | "measure" | "number", report: (msg: string) => void) {
  for (const ref of sql.matchAll(SQL_REFERENCE)) {
    const [text, head, tail] = ref;
    if (tail !== undefined) {
      report(`cross-cube reference ${text} is not supported; join the cube and use a view`);
      continue;
    }
    if (head === "CUBE") continue;
    if (cube.dimensions.has(head!)) continue;
    if (context === "number" && cube.measures.has(head!)) continue;
    report(
      cube.measures.has(head!) ? `${text} refers to a measure; only measures of type number may do that` : `unknown reference ${text} in cube "${cube.name}"`,
    );
  }
  // Self-reference loops ({a} → {b} → {a}) are caught at compile time by depth.
}

function findJoinCycles(cubes: Map<string, Cube>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    state.set(name, "visiting");
    stack.push(name);
    for (const target of cubes.get(name)?.joins.keys() ?? []) {
      if (!cubes.has(target)) continue;
      if (state.get(target) === "visiting") {
        const cycle = stack.slice(stack.indexOf(target));
        const key = [...cycle].sort().join(",");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(name, "done");
  };
  for (const name of cubes.keys()) if (!state.has(name)) visit(name);
  return cycles;
}

/**
 * "Customers" + "City" → "Customers City"; a member title that already names its cube stays as
 * it is ("Customers" + "Customers" → "Customers", "Orders" + "Orders Count" → "Orders Count").
 */
export function joinTitles(prefix: string, title: string): string {
  const p = prefix.trim().toLowerCase();
  const t = title.trim().toLowerCase();
  if (t === p || t.startsWith(p + " ") || p.endsWith(" " + t)) return title;
  return `${prefix} ${title}`;
}
