/**
 * The host page's AI context (`svc:action:set-ai-context`, docs/ai.md "AI context from the
 * host"): checked against what this viewer may ask about, then applied as a chat scope — its
 * filters added to every query of the answer (under row-level security, which the security
 * context applies in any case) and its views the only ones the answer may use. It only narrows:
 * the session's own scope and the viewer's security context stay as they are.
 */
import { z } from "zod";
import { parseFilterEntry, toQueryFilter, type DashboardFilter } from "../../../schema/dashboard-filters";
import type { AppliedChatContext, ChatContext } from "../../../schema/chat";
import type { QueryFilter } from "../../../schema/semantic-query";
import type { AppDeps, Principal } from "../../context";
import { validationError } from "../../domain/errors";
import { readAiSettings } from "../../ai/settings";
import type { MetaSource } from "../../semantic/query-engine";
import { securityContextOf } from "../embed-access/service";
import { assertAiAllowed, policyViews } from "./service";

/** What a question is restricted to: views (undefined: all the viewer may ask about) and filters added to every query. */
export interface ChatScope {
  views?: string[];
  filters: QueryFilter[];
}

/** The context as applied, the scope it makes, and the member titles it names (for the answer's words). */
export interface ResolvedAiContext {
  applied: AppliedChatContext;
  scope: ChatScope;
  titles: Record<string, string>;
}

/**
 * The context checked against the sources the viewer may ask about: each view among them, each
 * filter on a dimension of one of them (of the context's views, when it names some), each value
 * fit for its operator. Anything else is refused as `validation_failed`, naming the field.
 */
export function checkAiContext(context: ChatContext, sources: MetaSource[], permittedViews: string[], path: string[] = ["context"]): ResolvedAiContext {
  const visible = sources.filter((s) => permittedViews.includes(s.name));
  const viewNames = new Set(visible.map((s) => s.name));
  const inViews = context.views ? visible.filter((s) => context.views!.includes(s.name)) : visible;
  const dimensions = new Map(inViews.flatMap((s) => s.dimensions.map((d): [string, string] => [d.name, d.shortTitle || d.title])));
  const filters: DashboardFilter[] = [];
  const checked = z
    .object({
      views: z
        .array(z.string().refine((v) => viewNames.has(v), { error: (i) => `unknown view "${String(i.input)}", or one this viewer may not ask about` }))
        .min(1, "name at least one view, or leave views out")
        .optional(),
      filters: z
        .array(
          z.object({ member: z.string(), operator: z.string().optional(), value: z.unknown() }).superRefine((f, ctx) => {
            if (!dimensions.has(f.member)) {
              const where = context.views ? " of the context's views" : "";
              ctx.addIssue({ code: "custom", path: ["member"], message: `unknown dimension "${f.member}"${where}, or one this viewer may not see` });
              return;
            }
            const parsed = parseFilterEntry(f.member, JSON.stringify({ operator: f.operator, value: f.value }));
            if (!parsed.ok || !parsed.filter) ctx.addIssue({ code: "custom", path: ["value"], message: parsed.ok ? "a filter needs a value" : parsed.message });
            else filters.push(parsed.filter);
          }),
        )
        .optional(),
    })
    .safeParse(context);
  if (!checked.success) throw validationError(checked.error, "AI context", path);
  const views = context.views ? [...new Set(context.views)] : undefined;
  return {
    applied: {
      ...(context.title ? { title: context.title } : {}),
      ...(context.description ? { description: context.description } : {}),
      views: views ?? [...viewNames],
      filters: filters.map((f) => ({ member: f.member, operator: f.operator, ...(f.value === undefined ? {} : { value: f.value }) })),
    },
    scope: { ...(views ? { views } : {}), filters: filters.map(toQueryFilter) },
    titles: Object.fromEntries(filters.map((f) => [f.member, dimensions.get(f.member) ?? f.member])),
  };
}

/** `checkAiContext` for this viewer: the sources of their security context, the views the chat policies let them ask about. */
export async function resolveAiContext(
  deps: AppDeps,
  principal: Principal,
  deploymentId: number,
  context: ChatContext,
  /** Where the context is in the request body, for the fields a refusal names. */
  path: string[] = ["context"],
): Promise<ResolvedAiContext> {
  assertAiAllowed(principal, deploymentId);
  const [settings, securityContext, engine] = await Promise.all([
    readAiSettings(deps, principal),
    securityContextOf(principal, deps.db),
    deps.queryEngines.get(deploymentId),
  ]);
  const sources = engine.meta(securityContext).sources;
  return checkAiContext(
    context,
    sources,
    policyViews(
      settings.chatThreadPolicies,
      "create",
      sources.map((s) => s.name),
    ),
    path,
  );
}

/** Two scopes together: the views both allow, every filter of both. Neither can undo the other. */
export function narrowScope(a: ChatScope | undefined, b: ChatScope | undefined): ChatScope | undefined {
  if (!a || !b) return a ?? b;
  const views = a.views && b.views ? a.views.filter((v) => b.views!.includes(v)) : (a.views ?? b.views);
  return { ...(views ? { views } : {}), filters: [...a.filters, ...b.filters] };
}
