/** The understanding of what one view placed of a question: its measures, groupings, filters and rank. */
import type { Found } from "./placement";
import type { Understanding } from "./understanding";
import type { Match, ViewIndex } from "./view-index";

/** The understanding of what a view placed: measures (a count by default), groupings and filters. */
export function understand(
  index: ViewIndex,
  read: Found,
  o: { language: Understanding["language"]; limit?: number; direction?: "asc" | "desc"; joined: boolean; notAsked: Set<string> },
): Understanding {
  const member = (m: Match) => index.members[m.ref]!;
  let measures = [...new Set(read.measures.map((m) => member(m).name))];
  if (measures.some((m) => !o.notAsked.has(m))) measures = measures.filter((m) => !o.notAsked.has(m));
  // "revenue from orders …": the orders are what the revenue is of, unless both are asked ("revenue and orders").
  if (measures.length > 1 && !o.joined) {
    // Only a count named by one word ("orders"): "completed orders" is a figure of its own.
    const counted = new Set(read.measures.filter((m) => member(m).measureType === "count" && (m.words?.length ?? 1) === 1).map((m) => member(m).name));
    if (counted.size < measures.length) measures = measures.filter((m) => !counted.has(m));
  }
  const timeDims = new Set(index.source.dimensions.filter((d) => d.type === "time").map((d) => d.name));
  const dimensions = [...new Set(read.groups.map((m) => member(m).name))].filter((d) => !timeDims.has(d));
  const valuesOf = (matches: Match[]) => {
    const byMember = new Map<string, string[]>();
    for (const v of matches) {
      const doc = index.values[v.ref]!;
      byMember.set(doc.member, [...new Set([...(byMember.get(doc.member) ?? []), doc.value])]);
    }
    return byMember;
  };
  const kept = valuesOf(read.values);
  // "compare A and B": two values of one dimension are also its grouping.
  for (const [m, values] of kept) if (values.length > 1 && !dimensions.includes(m)) dimensions.push(m);
  const filters: Understanding["filters"] = [...kept].map(([m, values]) => ({ member: m, values }));
  for (const [m, values] of valuesOf(read.excluded)) filters.push({ member: m, values, exclude: true });
  let defaultMeasure = false;
  if (measures.length === 0) {
    const count = index.source.measures.find((m) => m.measureType === "count") ?? index.source.measures[0];
    if (count) measures = [count.name];
    defaultMeasure = true;
  }
  return {
    language: o.language,
    view: index.source.name,
    measures,
    dimensions,
    filters,
    defaultMeasure,
    ignored: read.left,
    ...(o.limit ? { limit: o.limit, direction: o.direction } : {}),
  };
}
