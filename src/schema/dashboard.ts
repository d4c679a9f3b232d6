import { z } from "zod";
import { Description, FreeFormObject, LongText, SafeJsonObject, SafeText, Title } from "./common";
import { widgetWiringIssues } from "./dashboard-wiring";

/** Spec 2.7: integers x, y, w, h, all required. */
export const DashboardWidgetPosition = z
  .object({ x: z.number().int(), y: z.number().int(), w: z.number().int(), h: z.number().int() })
  .meta({ id: "DashboardWidgetPosition" });
export type DashboardWidgetPosition = z.infer<typeof DashboardWidgetPosition>;

export const BREAKPOINT_KEYS = ["lg", "md", "sm", "xs", "xxs"] as const;
export type BreakpointKey = (typeof BREAKPOINT_KEYS)[number];

export const DashboardWidgetType = z.enum(["CHART", "TEXT", "FILTER", "AI", "TABS_CONTAINER", "TIME_GRAIN"]);
export type DashboardWidgetType = z.infer<typeof DashboardWidgetType>;

const ResponsiveLayouts = z
  .object({
    lg: DashboardWidgetPosition.nullable().optional(),
    md: DashboardWidgetPosition.nullable().optional(),
    sm: DashboardWidgetPosition.nullable().optional(),
    xs: DashboardWidgetPosition.nullable().optional(),
    xxs: DashboardWidgetPosition.nullable().optional(),
  })
  .strict();

/** Spec 2.7. A FILTER's `config.targets` and a CHART's `config.click` are checked (dashboard-wiring.ts). */
export const DashboardWidget = z
  .object({
    id: SafeText.max(255),
    type: DashboardWidgetType,
    position: DashboardWidgetPosition,
    responsiveLayouts: ResponsiveLayouts.nullable().optional(),
    config: SafeJsonObject.nullable().optional(),
    style: SafeJsonObject.nullable().optional(),
  })
  .strict()
  .check((ctx) => {
    for (const issue of widgetWiringIssues(ctx.value.type, ctx.value.config)) ctx.issues.push({ code: "custom", ...issue, input: ctx.value });
  })
  .meta({ id: "DashboardWidget" });
export type DashboardWidget = z.infer<typeof DashboardWidget>;

const BreakpointInts = z
  .object({
    lg: z.number().int().nullable().optional(),
    md: z.number().int().nullable().optional(),
    sm: z.number().int().nullable().optional(),
    xs: z.number().int().nullable().optional(),
    xxs: z.number().int().nullable().optional(),
  })
  .strict();

/** Spec 2.6 DashboardLayout: all optional, nullable. */
export const DashboardLayout = z
  .object({
    breakpoints: BreakpointInts.nullable().optional(),
    cols: BreakpointInts.nullable().optional(),
    containerPadding: z.array(z.number().int()).nullable().optional(),
    margin: z.array(z.number().int()).nullable().optional(),
    rowHeight: z.number().int().nullable().optional(),
  })
  .strict()
  .meta({ id: "DashboardLayout" });
export type DashboardLayout = z.infer<typeof DashboardLayout>;

export const DashboardAppManifest = z
  .object({
    dependencies: z.record(SafeText.max(255), SafeText.max(255)).nullable().optional(),
    version: z.number().int().nullable().optional(),
  })
  .strict()
  .meta({ id: "DashboardAppManifest" });

/** Spec 2.6 DashboardAppSource; `entry` at most 255 characters (spec 8). */
export const DashboardAppSource = z
  .object({
    entry: SafeText.max(255).nullable().optional(),
    files: z.record(SafeText.max(1024), LongText).nullable().optional(),
    html: LongText.nullable().optional(),
    manifest: DashboardAppManifest.nullable().optional(),
  })
  .strict()
  .meta({ id: "DashboardAppSource" });

/** Spec 2.6: every field optional and nullable. */
export const DashboardConfig = z
  .object({
    kind: z.enum(["CLASSIC", "APP"]).nullable().optional(),
    app: DashboardAppSource.nullable().optional(),
    title: Title.nullable().optional(),
    description: Description.nullable().optional(),
    layout: DashboardLayout.nullable().optional(),
    settings: SafeJsonObject.nullable().optional(),
    theme: SafeJsonObject.nullable().optional(),
    widgets: z.array(DashboardWidget).max(1000).nullable().optional(),
  })
  .strict()
  .meta({ id: "DashboardConfig" });
export type DashboardConfig = z.infer<typeof DashboardConfig>;

export const FillMissingRows = z
  .object({
    member: SafeText.max(255),
    excludedDimensions: z.array(SafeText.max(255)).max(200).nullable().optional(),
  })
  .meta({ id: "FillMissingRows" });
export type FillMissingRows = z.infer<typeof FillMissingRows>;

export const PeriodComparison = z
  .object({
    measure: SafeText.max(255),
    timeDimension: SafeText.max(255),
    offset: z.object({ amount: z.number().int(), unit: SafeText.max(50) }),
    outputs: z.array(SafeText.max(255)).max(50).nullable().optional(),
  })
  .meta({ id: "PeriodComparison" });
export type PeriodComparison = z.infer<typeof PeriodComparison>;

export const ColumnFormatOverride = z
  .object({
    type: z.enum(["currency", "percent", "number"]),
    decimalPlaces: z.number().int().nullable().optional(),
  })
  .meta({ id: "ColumnFormatOverride" });
export type ColumnFormatOverride = z.infer<typeof ColumnFormatOverride>;

export const ReportSnapshotPreferences = z
  .object({ columnFormats: z.record(SafeText.max(255), ColumnFormatOverride).nullable().optional() })
  .meta({ id: "ReportSnapshotPreferences" });

export const ReportKind = z.enum(["vega", "table", "kpi", "html", "map"]);
export type ReportKind = z.infer<typeof ReportKind>;

/** Spec 2.8. */
export const ReportSnapshot = z
  .object({
    id: z.number().int(),
    reportId: z.number().int(),
    versionNumber: z.number().int(),
    name: z.string().nullable().optional(),
    title: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    sqlQuery: z.string().nullable().optional(),
    kind: ReportKind.nullable().optional(),
    meta: FreeFormObject.nullable().optional(),
    spec: z.union([z.string(), FreeFormObject]).nullable().optional(),
    fillMissingRows: FillMissingRows.nullable().optional(),
    periodComparisons: z.array(PeriodComparison).nullable().optional(),
    preferences: ReportSnapshotPreferences.nullable().optional(),
  })
  .meta({ id: "ReportSnapshot" });
export type ReportSnapshot = z.infer<typeof ReportSnapshot>;

export const DashboardStatus = z.enum(["draft", "published", "archived"]);
export type DashboardStatus = z.infer<typeof DashboardStatus>;

/** Spec 2.5. */
export const Dashboard = z
  .object({
    id: z.number().int(),
    publicId: z.string(),
    deploymentId: z.number().int(),
    workbookId: z.number().int(),
    status: DashboardStatus,
    allowEmbed: z.boolean(),
    config: DashboardConfig,
    versionNumber: z.number().int(),
    versionId: z.number().int(),
    reportSnapshots: z.array(ReportSnapshot),
    createdBy: z.number().int().nullable().optional(),
    description: z.string().nullable().optional(),
    title: z.string().nullable().optional(),
    fromSharedWorkspace: z.boolean().nullable().optional(),
    restrictDataDownload: z.boolean().nullable().optional(),
    useBoardDashboards: z.boolean().nullable().optional(),
  })
  .meta({ id: "Dashboard" });
export type Dashboard = z.infer<typeof Dashboard>;
