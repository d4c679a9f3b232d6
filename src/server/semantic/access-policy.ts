import type { AccessPolicy } from "./data-model";
import type { FilterValue, MemberFilter, QueryFilter } from "../../schema/semantic-query";
import type { SecurityContext } from "./security-context";

/** A policy filter after templates were filled in; `never` when a referenced value is missing. */
export type ResolvedPolicyFilter = MemberFilter | { never: true } | { or: ResolvedPolicyFilter[] } | { and: ResolvedPolicyFilter[] };

/**
 * What a viewer may see of one cube or view:
 * - `all`: open (no policy) or a matching policy without row filters;
 * - `none`: policies exist and none matches the viewer;
 * - `rows`: any of `alternatives` (one per matching policy, each an AND of its filters).
 */
export type AccessDecision = { kind: "all" } | { kind: "none" } | { kind: "rows"; alternatives: ResolvedPolicyFilter[][] };

const TEMPLATE = /^\{\s*(securityContext|userAttributes)\.([_a-zA-Z][_a-zA-Z0-9]*)\s*\}$|^\{\s*groups\s*\}$/;

/** Whether a policy applies to the viewer: every condition it names must hold. */
export function policyMatches(policy: AccessPolicy, ctx: SecurityContext): boolean {
  if (policy.groups !== undefined && policy.groups !== "*" && !policy.groups.some((g) => ctx.groups.includes(g))) return false;
  if (policy.roles !== undefined && (ctx.role === undefined || !policy.roles.includes(ctx.role))) return false;
  return true;
}

function lookupTemplate(value: string, ctx: SecurityContext): { matched: false } | { matched: true; values: FilterValue[] | undefined } {
  const m = TEMPLATE.exec(value);
  if (!m) return { matched: false };
  let raw: unknown;
  if (m[1] === undefined) raw = ctx.groups;
  else if (m[1] === "userAttributes") raw = ctx.userAttributes[m[2]!];
  else {
    const key = m[2]!;
    raw = key === "userAttributes" ? undefined : Object.prototype.hasOwnProperty.call(ctx, key) ? (Reflect.get(ctx, key) as unknown) : ctx.userAttributes[key];
  }
  if (raw === undefined || raw === null) return { matched: true, values: undefined };
  if (Array.isArray(raw)) return { matched: true, values: raw.length ? (raw as FilterValue[]) : undefined };
  if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") return { matched: true, values: [raw] };
  return { matched: true, values: undefined };
}

function resolveFilter(filter: QueryFilter, ctx: SecurityContext): ResolvedPolicyFilter {
  if ("or" in filter) return { or: filter.or.map((f) => resolveFilter(f, ctx)) };
  if ("and" in filter) return { and: filter.and.map((f) => resolveFilter(f, ctx)) };
  const values: FilterValue[] = [];
  for (const v of filter.values ?? []) {
    if (typeof v !== "string") {
      values.push(v);
      continue;
    }
    const t = lookupTemplate(v, ctx);
    if (!t.matched) values.push(v);
    // A missing attribute must hide rows, never widen access: the filter becomes false.
    else if (t.values === undefined) return { never: true };
    else values.push(...t.values);
  }
  return { member: filter.member, operator: filter.operator, ...(filter.values ? { values } : {}) };
}

/** Decides what `ctx` may see of a cube or view with these policies. */
export function decideAccess(policies: AccessPolicy[] | undefined, ctx: SecurityContext): AccessDecision {
  if (policies === undefined) return { kind: "all" };
  const matching = policies.filter((p) => policyMatches(p, ctx));
  if (matching.length === 0) return { kind: "none" };
  if (matching.some((p) => p.rowLevel.allowAll)) return { kind: "all" };
  return { kind: "rows", alternatives: matching.map((p) => p.rowLevel.filters.map((f) => resolveFilter(f, ctx))) };
}
