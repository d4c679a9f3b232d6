/** The breadcrumb of a drill-through and each step's heading. */
import { t, type SupportedLocale } from "../i18n";
import { useEmbedStore } from "../state/use-embed-store";
import { titleOfColumn } from "../export/export-columns";
import type { QueryAnnotation } from "../../schema/semantic-query";
import type { DrillStep } from "./drill-explore";

/** A member and its values as the slice's chips read ("Country: United States"), values by their labels. */
export function sliceText(member: string, values: readonly unknown[], annotation: QueryAnnotation | undefined): string {
  return `${titleOfColumn(member, annotation)}: ${values.map((v) => annotation?.dimensions[member]?.valueLabels?.[String(v)] ?? String(v)).join(", ")}`;
}

/** The heading of a step: the rows behind the measure, or the measure by what the step breaks it out by. */
export function drillStepTitle(locale: SupportedLocale, step: DrillStep, memberTitle: string): string {
  if (step.view.kind === "rows") return t(locale, "drilldown.title", { member: memberTitle });
  return `${memberTitle} · ${step.label ?? ""}`;
}

/** Every step taken so far; each but the current one goes back to it. */
export function DrillTrail(props: { steps: readonly DrillStep[]; onBack: (index: number) => void }) {
  const locale = useEmbedStore((s) => s.locale);
  return (
    <nav className="svc-drill-trail" aria-label={t(locale, "drilldown.trail")} data-testid="drill-trail">
      <ol>
        {props.steps.map((step, i) => {
          const label = step.label ?? t(locale, "drilldown.rows");
          const current = i === props.steps.length - 1;
          return (
            <li key={i}>
              {current ? (
                <span aria-current="step">{label}</span>
              ) : (
                <button type="button" className="svc-drill-trail-link" onClick={() => props.onBack(i)}>
                  {label}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
