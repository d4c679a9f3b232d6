/**
 * Dashboard filters in their URL and action string forms (decisions.md "Embed URL
 * parameters"): `f_<view>.<dimension>=<JSON>`, `tg_<view>.<dimension>=<granularity>`,
 * `ms_<view>.<member>=<selected>`; and their translation into semantic-layer query filters.
 * The same string form is read from the embed URL, taken by `svc:action:set-filter` and
 * emitted by `svc:event:filters-changed`.
 */
import type { FilterOperator, MemberFilter, QueryFilter } from "./semantic-query";

/** `<view_or_cube>.<member>`, names as the semantic layer allows them. */
export const MEMBER_NAME_PATTERN = /^[_a-zA-Z][_a-zA-Z0-9]*\.[_a-zA-Z][_a-zA-Z0-9]*$/;
const MAX_MEMBER_LENGTH = 255;
const MAX_FILTER_JSON_LENGTH = 10_000;
const MAX_FILTER_VALUES = 1_000;
const MAX_SWITCH_VALUE_LENGTH = 255;

export const DASHBOARD_FILTER_OPERATORS = [
  "equals",
  "not_equals",
  "greater_than",
  "greater_than_or_equal",
  "less_than",
  "less_than_or_equal",
  "contains",
  "not_contains",
  "starts_with",
  "not_starts_with",
  "ends_with",
  "not_ends_with",
  "is_null",
  "is_not_null",
  "is_empty",
  "is_not_empty",
  "between",
] as const;
export type DashboardFilterOperator = (typeof DASHBOARD_FILTER_OPERATORS)[number];

/** Operators that take no value. */
export const VALUELESS_FILTER_OPERATORS: readonly DashboardFilterOperator[] = ["is_null", "is_not_null", "is_empty", "is_not_empty"];

export const TIME_GRANULARITIES = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"] as const;
export type TimeGranularity = (typeof TIME_GRANULARITIES)[number];

export type FilterScalar = string | number | boolean;

/**
 * A dashboard filter on one member. `value` keeps the form it was given in: a scalar, a list
 * ("any of"), a pair for `between`, and absent for the valueless operators. That keeps
 * `serializeFilterParameter(parseFilterParameter(s))` stable.
 */
export interface DashboardFilter {
  member: string;
  operator: DashboardFilterOperator;
  value?: FilterScalar | FilterScalar[];
}

export type FilterParseErrorReason = "malformed" | "invalid-member" | "too-long" | "invalid-json" | "unknown-operator" | "invalid-value";

export type FilterParseResult =
  | {
      ok: true;
      member: string;
      /** `null` when the parameter clears the filter (`f_<member>=null`). */
      filter: DashboardFilter | null;
    }
  | { ok: false; reason: FilterParseErrorReason; message: string };

/** True when `name` is a well-formed `<view>.<member>` name. */
export function isMemberName(name: string): boolean {
  return name.length <= MAX_MEMBER_LENGTH && MEMBER_NAME_PATTERN.test(name);
}

/** A string, finite number or boolean; strings no longer than a filter's JSON may be. */
function isFilterScalar(value: unknown): value is FilterScalar {
  if (typeof value === "string") return value.length <= MAX_FILTER_JSON_LENGTH;
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "boolean";
}

/** A scalar, or a non-empty list of at most MAX_FILTER_VALUES scalars. */
function isFilterValue(value: unknown): value is FilterScalar | FilterScalar[] {
  if (Array.isArray(value)) return value.length >= 1 && value.length <= MAX_FILTER_VALUES && value.every(isFilterScalar);
  return isFilterScalar(value);
}

const fail = (reason: FilterParseErrorReason, message: string): FilterParseResult => ({ ok: false, reason, message });

/**
 * Parses the member (without the `f_` prefix) and the JSON text of one filter. Used by
 * `parseFilterParameter` and by URL parsing, where URLSearchParams has already split and
 * decoded the pair.
 */
export function parseFilterEntry(member: string, jsonText: string): FilterParseResult {
  if (!isMemberName(member)) {
    return fail("invalid-member", `"${member.slice(0, 80)}" is not a <view>.<dimension> member name`);
  }
  if (jsonText.length > MAX_FILTER_JSON_LENGTH) {
    return fail("too-long", `filter value is longer than ${MAX_FILTER_JSON_LENGTH} characters`);
  }
  let body: unknown;
  try {
    body = JSON.parse(jsonText);
  } catch {
    // Hosts sometimes pass the percent-encoded form copied from a URL.
    try {
      body = JSON.parse(decodeURIComponent(jsonText));
    } catch {
      return fail("invalid-json", "filter value is not JSON");
    }
  }
  if (body === null) return { ok: true, member, filter: null };
  // Checked by hand rather than with a schema library: this module is in the embed's
  // start-up bundle, and these are three small checks.
  if (typeof body !== "object" || Array.isArray(body)) {
    return fail("invalid-json", 'filter value must be a JSON object like {"value": ...} or {"operator": ..., "value": ...}');
  }
  const { operator: rawOperator, value: rawValue } = body as { operator?: unknown; value?: unknown };
  if (rawOperator !== undefined && typeof rawOperator !== "string") {
    return fail("invalid-json", 'filter value must be a JSON object like {"value": ...} or {"operator": ..., "value": ...}');
  }
  const operatorText = rawOperator ?? "equals";
  if (!(DASHBOARD_FILTER_OPERATORS as readonly string[]).includes(operatorText)) {
    return fail("unknown-operator", `unknown operator "${operatorText.slice(0, 40)}"`);
  }
  const operator = operatorText as DashboardFilterOperator;
  if (VALUELESS_FILTER_OPERATORS.includes(operator)) {
    return { ok: true, member, filter: { member, operator } };
  }
  if (!isFilterValue(rawValue)) {
    return fail("invalid-value", `operator "${operator}" needs a string, number or boolean value, or a non-empty list of them`);
  }
  if (operator === "between") {
    const pair = rawValue;
    const isBound = (v: FilterScalar) => typeof v === "number" || typeof v === "string";
    if (!Array.isArray(pair) || pair.length !== 2 || !pair.every(isBound) || typeof pair[0] !== typeof pair[1]) {
      return fail("invalid-value", 'operator "between" needs [from, to] of two numbers or two strings');
    }
  }
  return { ok: true, member, filter: { member, operator, value: rawValue } };
}

/** Parses `f_<view>.<dimension>=<JSON>`. */
export function parseFilterParameter(parameter: string): FilterParseResult {
  if (typeof parameter !== "string") return fail("malformed", "filter parameter must be a string");
  const trimmed = parameter.trim();
  const equals = trimmed.indexOf("=");
  if (!trimmed.startsWith("f_") || equals < 0) {
    return fail("malformed", "filter parameter must look like f_<view>.<dimension>=<JSON>");
  }
  return parseFilterEntry(trimmed.slice(2, equals), trimmed.slice(equals + 1));
}

/** Serialises a filter to `f_<member>=<JSON>`, the form `parseFilterParameter` reads. */
export function serializeFilterParameter(filter: DashboardFilter): string {
  const body =
    filter.operator === "equals"
      ? { value: filter.value }
      : filter.value === undefined
        ? { operator: filter.operator }
        : { operator: filter.operator, value: filter.value };
  return `f_${filter.member}=${JSON.stringify(body)}`;
}

/** Serialises a whole filter map, sorted by member so equal states give equal lists. */
export function serializeFilterParameters(filters: Readonly<Record<string, DashboardFilter>>): string[] {
  return Object.keys(filters)
    .sort()
    .map((member) => serializeFilterParameter(filters[member]!));
}

// ---------------------------------------------------------------------------------------------
// Embed URL parameters

/** Hide switches; each is `true` unless the URL carries the literal `false`. */
export const EMBED_VISIBILITY_SWITCHES = [
  "showDashboardHeader",
  "showDashboardTitle",
  "showDashboardExportMenu",
  "showNewChat",
  "showChatInput",
  "showChatHistory",
] as const;
export type EmbedVisibilitySwitch = (typeof EMBED_VISIBILITY_SWITCHES)[number];

export interface EmbedUrlParameterProblem {
  parameter: string;
  reason: FilterParseErrorReason | "invalid-granularity" | "invalid-timezone" | "invalid-switch";
  message: string;
}

export interface EmbedUrlParameters {
  filters: Record<string, DashboardFilter>;
  timeGrains: Record<string, TimeGranularity>;
  memberSwitches: Record<string, string>;
  allowExport: boolean;
  /** Raw locale text; matching to a supported locale is the i18n module's job. */
  locale: string | null;
  /** A valid IANA time zone name, or null. */
  timezone: string | null;
  show: Record<EmbedVisibilitySwitch, boolean>;
  /** Parameters that were present but unusable; they are otherwise ignored. */
  problems: EmbedUrlParameterProblem[];
}

const UTC_OFFSET_PATTERN = /^(?:utc|gmt)?\s*[+\-\u2212]\s*\d{1,2}(?::?\d{2})?$/i;

/**
 * True for an IANA time zone name the runtime knows. Bare UTC offsets ("+02:00", "UTC+2")
 * are refused even where the runtime would accept them: they ignore daylight saving time.
 */
export function isIanaTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 100 || UTC_OFFSET_PATTERN.test(value.trim())) return false;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the embed URL parameters once at load. Unusable parameters are listed in
 * `problems` and otherwise ignored; a later duplicate of a filter overrides an earlier one.
 */
export function parseEmbedUrlParameters(params: URLSearchParams): EmbedUrlParameters {
  const result: EmbedUrlParameters = {
    filters: {},
    timeGrains: {},
    memberSwitches: {},
    allowExport: params.get("allowExport") === "true",
    locale: null,
    timezone: null,
    show: Object.fromEntries(EMBED_VISIBILITY_SWITCHES.map((key) => [key, params.get(key) !== "false"])) as Record<EmbedVisibilitySwitch, boolean>,
    problems: [],
  };
  const locale = params.get("locale")?.trim();
  if (locale && locale.length <= 100) result.locale = locale;
  const timezone = params.get("timezone")?.trim();
  if (timezone) {
    if (isIanaTimeZone(timezone)) result.timezone = timezone;
    else result.problems.push({ parameter: "timezone", reason: "invalid-timezone", message: "timezone must be an IANA name" });
  }
  for (const [key, value] of params) {
    if (key.startsWith("f_")) {
      const parsed = parseFilterEntry(key.slice(2), value);
      if (!parsed.ok) result.problems.push({ parameter: key, reason: parsed.reason, message: parsed.message });
      else if (parsed.filter === null) delete result.filters[parsed.member];
      else result.filters[parsed.member] = parsed.filter;
    } else if (key.startsWith("tg_")) {
      const member = key.slice(3);
      if (!isMemberName(member)) {
        result.problems.push({ parameter: key, reason: "invalid-member", message: "not a <view>.<dimension> member name" });
      } else if (!(TIME_GRANULARITIES as readonly string[]).includes(value)) {
        result.problems.push({ parameter: key, reason: "invalid-granularity", message: `granularity must be one of ${TIME_GRANULARITIES.join(", ")}` });
      } else {
        result.timeGrains[member] = value as TimeGranularity;
      }
    } else if (key.startsWith("ms_")) {
      const member = key.slice(3);
      const selected = value.trim();
      if (!isMemberName(member)) {
        result.problems.push({ parameter: key, reason: "invalid-member", message: "not a <view>.<member> member name" });
      } else if (selected.length === 0 || selected.length > MAX_SWITCH_VALUE_LENGTH) {
        result.problems.push({ parameter: key, reason: "invalid-switch", message: "member switch needs a selected value" });
      } else {
        result.memberSwitches[member] = selected;
      }
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Semantic-layer query filters

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const SINGLE_VALUE_OPERATORS: Partial<Record<DashboardFilterOperator, { op: FilterOperator; negated: boolean }>> = {
  greater_than: { op: "gt", negated: false },
  greater_than_or_equal: { op: "gte", negated: false },
  less_than: { op: "lt", negated: false },
  less_than_or_equal: { op: "lte", negated: false },
  contains: { op: "contains", negated: false },
  not_contains: { op: "notContains", negated: true },
  starts_with: { op: "startsWith", negated: false },
  not_starts_with: { op: "notStartsWith", negated: true },
  ends_with: { op: "endsWith", negated: false },
  not_ends_with: { op: "notEndsWith", negated: true },
};

/**
 * Translates a dashboard filter into a semantic-layer query filter. A list value means "any
 * of": a positive operator becomes an `or` of one filter per value, a negated one an `and`
 * (the value matches none of them); `equals` / `not_equals` lists use `in` / `notIn`.
 */
export function toQueryFilter(filter: DashboardFilter): QueryFilter {
  const { member, operator, value } = filter;
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  switch (operator) {
    case "is_null":
      return { member, operator: "notSet", values: [] };
    case "is_not_null":
      return { member, operator: "set", values: [] };
    case "is_empty":
      return { member, operator: "equals", values: [""] };
    case "is_not_empty":
      return {
        and: [
          { member, operator: "notEquals", values: [""] },
          { member, operator: "set", values: [] },
        ],
      };
    case "equals":
      return list.length === 1 ? { member, operator: "equals", values: list } : { member, operator: "in", values: list };
    case "not_equals":
      return list.length === 1 ? { member, operator: "notEquals", values: list } : { member, operator: "notIn", values: list };
    case "between": {
      const [from, to] = list as [FilterScalar, FilterScalar];
      if (typeof from === "string" && typeof to === "string" && DATE_PATTERN.test(from) && DATE_PATTERN.test(to)) {
        return { member, operator: "inDateRange", values: [from, to] };
      }
      return {
        and: [
          { member, operator: "gte", values: [from] },
          { member, operator: "lte", values: [to] },
        ],
      };
    }
    default: {
      const mapping = SINGLE_VALUE_OPERATORS[operator];
      if (!mapping) throw new TypeError(`unknown dashboard filter operator ${String(operator)}`);
      const parts: MemberFilter[] = list.map((v) => ({ member, operator: mapping.op, values: [v] }));
      if (parts.length === 1) return parts[0]!;
      return mapping.negated ? { and: parts } : { or: parts };
    }
  }
}
