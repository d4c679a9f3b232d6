/**
 * The formula editor's logic (report-formula-editor.tsx): a calculated field's formula checked by
 * the same parser and type checker the server uses (src/schema/formula), against the members of
 * the report's view the viewer may see (the model as `meta` answers it), with the position of the
 * first problem; member, function and keyword completion at the caret; and the field put into and
 * taken out of the draft's query (`calculatedFields`, docs/data-model.md "Calculated fields").
 */
import type { CalculatedField } from "../../../schema/calculated-field";
import { aggregateFunctions, checkFormula, scalarFunctions, type FormulaScope, type FormulaType, type ScopeMember } from "../../../schema/formula/checker";
import { FormulaError, type FormulaErrorKind, type FormulaProblem } from "../../../schema/formula/formula-error";
import { parseFormula } from "../../../schema/formula/parser";
import { nearestName } from "../../../schema/formula/suggestions";
import { KEYWORDS } from "../../../schema/formula/tokenizer";
import type { QueryFilter } from "../../../schema/semantic-query";
import type { SemanticQuery } from "../../shell/platform-api";
import type { MetaMember, MetaSource } from "./app-api";

/** A member's name without its view: `revenue` for `sales.revenue`. */
export const bareName = (source: MetaSource, member: MetaMember) =>
  member.name.startsWith(`${source.name}.`) ? member.name.slice(source.name.length + 1) : member.name;

/** The view's members as the checker names them: bare (`revenue`) or qualified (`sales.revenue`). */
export function formulaScopeOf(source: MetaSource): FormulaScope<MetaMember> {
  const byName = new Map<string, ScopeMember<MetaMember>>();
  const add = (m: MetaMember, kind: "measure" | "dimension") => {
    const scoped = { handle: m, kind, type: kind === "measure" ? "number" : (m.type as FormulaType) };
    byName.set(m.name, scoped);
    byName.set(bareName(source, m), scoped);
  };
  source.measures.forEach((m) => add(m, "measure"));
  source.dimensions.forEach((m) => add(m, "dimension"));
  return { member: (name) => byName.get(name), names: () => byName.keys() };
}

export type FormulaCheck =
  | { ok: true; kind: "measure" | "dimension"; type: FormulaType }
  | ({
      ok: false;
      /** `empty` for a formula with nothing in it yet. */
      kind: FormulaErrorKind | "empty";
      /** 0-based offset of the first character of the problem; `end` exclusive (equal at the end of the text). */
      position: number;
      end: number;
      /** The checker's own words (English, as the API answers them); `code` and `params` tell it in the app's words (report-formula-messages.ts). */
      detail: string;
      /** The unknown member or function as written, and the nearest member's name when one is close. */
      word?: string;
      nearest?: string;
    } & FormulaProblem);

const WORD_AT = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?|[0-9]+(?:\.[0-9]+)?|'(?:[^'\\]|\\.|'')*'?|[<>!]=|<>|./y;

/** Parses and type-checks a formula over the view's members: its kind, or its first problem with where it is. */
export function checkFormulaText(text: string, source: MetaSource): FormulaCheck {
  if (text.trim() === "") return { ok: false, kind: "empty", position: 0, end: 0, detail: "the formula is empty", code: "empty", params: {} };
  const scope = formulaScopeOf(source);
  try {
    const checked = checkFormula(parseFormula(text), scope);
    return { ok: true, kind: checked.level === "aggregate" ? "measure" : "dimension", type: checked.type };
  } catch (e) {
    if (!(e instanceof FormulaError)) throw e;
    const position = Math.min(e.position, text.length);
    WORD_AT.lastIndex = position;
    const token = position < text.length ? (WORD_AT.exec(text)?.[0] ?? "") : "";
    const out: FormulaCheck = { ok: false, kind: e.kind, position, end: position + token.length, detail: e.detail, ...e.problem };
    if (e.kind === "unknown_member" || e.kind === "unknown_function") {
      out.word = token;
      const near = e.kind === "unknown_member" ? nearestName(token, scope.names()) : undefined;
      if (near !== undefined) out.nearest = near;
    }
    return out;
  }
}

export interface Completion {
  /** What replaces the word at the caret: a member's bare name, `sum(`, `where `. */
  insert: string;
  kind: "measure" | "dimension" | "function" | "keyword";
  member?: MetaMember;
}

export interface CompletionList {
  /** The word being completed: `text.slice(from, to)`. */
  from: number;
  to: number;
  items: Completion[];
}

/** Most completions offered at once. */
export const MAX_COMPLETIONS = 12;
const FUNCTIONS = [...aggregateFunctions, ...scalarFunctions];
const COMPLETED_KEYWORDS = KEYWORDS.filter((k) => k !== "null");

/** Whether `caret` is inside a text literal ('…', with '' and \' inside). */
function inText(text: string, caret: number): boolean {
  let open = false;
  for (let i = 0; i < caret; i++) {
    const c = text[i];
    if (!open) open = c === "'";
    else if (c === "\\") i++;
    else if (c === "'") {
      if (text[i + 1] === "'" && i + 1 < caret) i++;
      else open = false;
    }
  }
  return open;
}

/**
 * What may complete the word at the caret: the view's members (name or title starting with it
 * first, then containing it), the functions and the keywords. Nothing inside a text literal or
 * after a number; with no word typed, only when `all` (Ctrl+Space) asks for every member.
 */
export function completionsAt(text: string, caret: number, source: MetaSource, all = false): CompletionList | null {
  if (inText(text, caret)) return null;
  const before = /[A-Za-z0-9_.]*$/.exec(text.slice(0, caret))![0];
  if (/^[0-9]/.test(before)) return null;
  const after = /^[A-Za-z0-9_]*/.exec(text.slice(caret))![0];
  const from = caret - before.length;
  const to = caret + after.length;
  const dot = before.indexOf(".");
  if (dot >= 0 && before.slice(0, dot) !== source.name) return null;
  const prefix = (dot >= 0 ? before.slice(dot + 1) : before).toLowerCase();
  if (!prefix && !all && dot < 0) return null;
  const qualify = (name: string) => (dot >= 0 ? `${source.name}.${name}` : name);
  const members = [...source.measures.map((m) => ["measure", m] as const), ...source.dimensions.map((m) => ["dimension", m] as const)];
  const starts: Completion[] = [];
  const contains: Completion[] = [];
  for (const [kind, m] of members) {
    const name = bareName(source, m).toLowerCase();
    const title = `${m.title} ${m.shortTitle}`.toLowerCase();
    const item = { insert: qualify(bareName(source, m)), kind, member: m };
    if (name.startsWith(prefix) || title.split(/\s+/).some((w) => w.startsWith(prefix))) starts.push(item);
    else if (prefix && (name.includes(prefix) || title.includes(prefix))) contains.push(item);
  }
  const words: Completion[] =
    dot >= 0 || !prefix
      ? []
      : [
          ...FUNCTIONS.filter((f) => f.startsWith(prefix)).map((f): Completion => ({ insert: `${f}(`, kind: "function" })),
          ...COMPLETED_KEYWORDS.filter((k) => prefix.length >= 2 && k.startsWith(prefix) && k !== prefix).map((k): Completion => ({
            insert: `${k} `,
            kind: "keyword",
          })),
        ];
  const items = [...starts, ...words, ...contains].slice(0, MAX_COMPLETIONS);
  // A word written out in full that is all there is to offer: nothing left to complete.
  if (!items.length || (items.length === 1 && items[0]!.insert.toLowerCase() === before.toLowerCase())) return null;
  return { from, to, items };
}

/** The formula with a completion in place of the word, and the caret after it. */
export function applyCompletion(text: string, list: Pick<CompletionList, "from" | "to">, item: Completion): { text: string; caret: number } {
  const next = text.slice(0, list.from) + item.insert + text.slice(list.to);
  return { text: next, caret: list.from + item.insert.length };
}

/** An identifier for a field from its title: "Revenue per order" → `revenue_per_order`. */
export function fieldNameOf(title: string, fallback = "field"): string {
  const slug = title
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 60);
  if (!slug) return fallback;
  return /^[0-9]/.test(slug) ? `f_${slug}` : slug;
}

/** Why a field may not take a name in the view: none given, or a member or another field has it. */
export function nameProblemOf(name: string, source: MetaSource, fields: readonly CalculatedField[], editing?: string): "nameMissing" | "nameTaken" | null {
  if (!name) return "nameMissing";
  const members = [...source.measures, ...source.dimensions].map((m) => bareName(source, m));
  if (members.includes(name)) return "nameTaken";
  return fields.some((f) => f.name === name && f.name !== editing) ? "nameTaken" : null;
}

const withoutMember = (filters: readonly QueryFilter[], member: string): QueryFilter[] =>
  filters.flatMap((f): QueryFilter[] => {
    if ("member" in f) return f.member === member ? [] : [f];
    const inner = withoutMember("or" in f ? f.or : f.and, member);
    if (!inner.length) return [];
    return ["or" in f ? { or: inner } : { and: inner }];
  });

/** The query without a calculated field: its definition, and its place in measures, breakouts, filters and order. */
export function removeCalculatedField(query: SemanticQuery, view: string, name: string): SemanticQuery {
  const member = `${view}.${name}`;
  const { calculatedFields, measures, dimensions, filters, order, ...rest } = query;
  const out: SemanticQuery = { ...rest };
  const fields = (calculatedFields ?? []).filter((f) => f.name !== name);
  if (fields.length) out.calculatedFields = fields;
  if (measures) out.measures = measures.filter((m) => m !== member);
  if (dimensions) out.dimensions = dimensions.filter((d) => d !== member);
  if (filters) out.filters = withoutMember(filters, member);
  if (order) out.order = Array.isArray(order) ? order.filter(([m]) => m !== member) : Object.fromEntries(Object.entries(order).filter(([m]) => m !== member));
  return out;
}

/**
 * The query with a calculated field defined and shown: a measure among the measures, a dimension
 * among the breakouts. A field edited under the same name and kind keeps its place.
 */
export function putCalculatedField(query: SemanticQuery, view: string, field: CalculatedField, kind: "measure" | "dimension", editing?: string): SemanticQuery {
  const member = `${view}.${field.name}`;
  const list = kind === "measure" ? "measures" : "dimensions";
  const same = editing === field.name && (query[list] ?? []).includes(member);
  const base = editing !== undefined && !same ? removeCalculatedField(query, view, editing) : query;
  const fields = base.calculatedFields ?? [];
  const at = fields.findIndex((f) => f.name === field.name);
  return {
    ...base,
    calculatedFields: at >= 0 ? fields.map((f, i) => (i === at ? field : f)) : [...fields, field],
    [list]: same ? base[list] : [...(base[list] ?? []), member],
  };
}

/** A calculated field as a member of the view, so the panels list, label, filter and sort it like one. */
export function calculatedMembersOf(source: MetaSource, fields: readonly CalculatedField[]): { measures: MetaMember[]; dimensions: MetaMember[] } {
  const out = { measures: [] as MetaMember[], dimensions: [] as MetaMember[] };
  for (const field of fields) {
    const check = checkFormulaText(field.formula, source);
    const title = field.title ?? field.name;
    const kind = check.ok ? check.kind : "measure";
    const type = check.ok && check.type !== "time" ? check.type : "number";
    const member: MetaMember = {
      name: `${source.name}.${field.name}`,
      title,
      shortTitle: title,
      type,
      ...(kind === "measure" ? { measureType: "number" } : {}),
    };
    out[kind === "measure" ? "measures" : "dimensions"].push(member);
  }
  return out;
}

/** The view with the draft's calculated fields among its members. */
export function withCalculatedMembers(source: MetaSource, fields: readonly CalculatedField[] | undefined): MetaSource {
  if (!fields?.length) return source;
  const extra = calculatedMembersOf(source, fields);
  return { ...source, measures: [...source.measures, ...extra.measures], dimensions: [...source.dimensions, ...extra.dimensions] };
}

/** Member names a query uses (measures, breakouts, time, filters, order, comparison). */
function namesUsedBy(q: SemanticQuery): Set<string> {
  const names = new Set([...(q.measures ?? []), ...(q.dimensions ?? []), ...(q.timeDimensions ?? []).map((t) => t.dimension)]);
  const walk = (f: QueryFilter) => ("member" in f ? names.add(f.member) : ("or" in f ? f.or : f.and).forEach(walk));
  (q.filters ?? []).forEach(walk);
  for (const m of Array.isArray(q.order) ? q.order.map(([m]) => m) : Object.keys(q.order ?? {})) names.add(m);
  return names;
}

/**
 * The query with only the calculated fields that can run: a field whose formula does not check
 * against the view (the model changed, or the API wrote it) is left out with every use of it,
 * like a half-made filter, and so is a field no part of the query names (the API refuses one).
 */
export function runnableCalculatedFieldsOf(q: SemanticQuery, source: MetaSource | undefined): SemanticQuery {
  if (!q.calculatedFields?.length || !source) return q;
  const broken = q.calculatedFields.filter((f) => !checkFormulaText(f.formula, source).ok);
  const checked = broken.reduce((query, f) => removeCalculatedField(query, source.name, f.name), q);
  return usedCalculatedFieldsOf(checked, source.name);
}

/** The query with only the calculated fields it uses (the API refuses a field no part of the query names). */
export function usedCalculatedFieldsOf(q: SemanticQuery, view: string | null): SemanticQuery {
  if (!q.calculatedFields?.length) return q;
  const used = namesUsedBy(q);
  const { calculatedFields, ...rest } = q;
  const kept = calculatedFields.filter((f) => used.has(`${view}.${f.name}`));
  return kept.length ? { ...rest, calculatedFields: kept } : rest;
}
