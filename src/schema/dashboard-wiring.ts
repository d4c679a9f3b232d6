/**
 * What a dashboard's widgets say about each other (docs/dashboards.md "Filter wiring" and
 * "Click behaviour"): which widgets a FILTER widget drives, on which member of each widget's
 * report (`FILTER config.targets`), and what a click on a CHART widget does (`CHART config.click`).
 * Both are optional fields of the widget's free-form `config`; `DashboardWidget` checks them on
 * every write, so GET returns what PUT accepted.
 */
import { z } from "zod";
import { isMemberName } from "./dashboard-filters";

const MemberName = z.string().refine(isMemberName, { error: "expected a member name: <view>.<member>" });
const WidgetId = z.string().min(1).max(255);

/** One widget a filter drives, and the member of that widget's report it filters. */
export const FilterTarget = z.object({ widgetId: WidgetId, member: MemberName }).strict().meta({ id: "DashboardFilterTarget" });
export type FilterTarget = z.infer<typeof FilterTarget>;

/**
 * `FILTER config.targets`: absent, the filter drives every chart whose report uses the filter
 * member's view (on that member); present, exactly the widgets listed, each on its member
 * (an empty list drives none).
 */
export const FilterTargets = z.array(FilterTarget).max(1000);

/** A creator's name for a click event: letters, digits, `.`, `_`, `-`; at most 64 characters. */
export const CLICK_EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `CHART config.click`: absent or `drill`, today's drilldown. */
export const WidgetClickBehaviour = z
  .discriminatedUnion("action", [
    z.object({ action: z.literal("drill") }).strict(),
    z
      .object({
        action: z.literal("link"),
        /** The linked dashboard (its publicId), of the same deployment. */
        dashboardPublicId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
        /** Its workbook, where the creator app opens it. */
        workbookId: z.number().int().positive().optional(),
        /** The linked dashboard's filter that receives the clicked value. */
        filterMember: MemberName,
        /** The clicked row's column whose value is passed; absent, the report's first dimension. */
        sourceMember: MemberName.optional(),
      })
      .strict(),
    z.object({ action: z.literal("event"), name: z.string().regex(CLICK_EVENT_NAME, "letters, digits, '.', '_' or '-', at most 64") }).strict(),
  ])
  .meta({ id: "DashboardWidgetClick" });
export type WidgetClickBehaviour = z.infer<typeof WidgetClickBehaviour>;
export type WidgetClickAction = WidgetClickBehaviour["action"];

/** The issues of a widget's wiring fields, for `DashboardWidget`'s check: path inside the widget, message. */
export function widgetWiringIssues(type: string, config: Record<string, unknown> | null | undefined): { path: (string | number)[]; message: string }[] {
  if (!config) return [];
  const check = (field: "targets" | "click", schema: z.ZodType) => {
    if (config[field] === undefined || config[field] === null) return [];
    const parsed = schema.safeParse(config[field]);
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => ({
          path: ["config", field, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
          message: issue.message,
        }));
  };
  if (type === "FILTER") return check("targets", FilterTargets);
  if (type === "CHART") return check("click", WidgetClickBehaviour);
  return [];
}

/** The click behaviour of a widget's config; anything absent or malformed is the drilldown. */
export function clickBehaviourOf(config: Record<string, unknown> | null | undefined): WidgetClickBehaviour {
  const parsed = WidgetClickBehaviour.safeParse(config?.click);
  return parsed.success ? parsed.data : { action: "drill" };
}

/** The explicit targets of a FILTER widget's config; null when it has none (the default wiring). */
export function filterTargetsOf(config: Record<string, unknown> | null | undefined): FilterTarget[] | null {
  if (config?.targets === undefined || config.targets === null) return null;
  const parsed = FilterTargets.safeParse(config.targets);
  return parsed.success ? parsed.data : null;
}
