/**
 * "Why did revenue fall in February 2025?": the values of the view's groupings that moved the
 * measure most between the period and the one before — or, "why is revenue in Germany lower
 * than in France?", that make one value's figure differ from the other's — through
 * `explainChange` under the viewer's row-level security (and the surface's own filters), as a
 * table and a sentence.
 */
import type { ExplainInput, QueryFilter } from "../../../schema/semantic-query";
import { explainChange } from "../../semantic";
import { QueryValidationError } from "../../semantic/errors";
import { SAY } from "../builtin-language";
import { explainColumns } from "../tools";
import type { Emit, TurnContext } from "../types";
import { shownValue } from "./format";
import { queryOf } from "./query";
import { groupingsOf } from "./refusal";
import { summarizeExplanation } from "./summary-analysis";
import type { Understanding } from "./understanding";
import type { ViewIndex } from "./view-index";

/** The member's own name without the view ("customers_country"), and the entity it is of ("customers"). */
const entityOf = (name: string) => /^([a-z]+)_/.exec(name.split(".").pop()!)?.[1];

/**
 * The explain input of an understanding: two periods, or two values of one dimension (then the
 * candidates leave out that dimension and the others of its entity — a country's cities say
 * nothing new — and a period asked is a filter both sides share).
 */
export function explainInputOf(u: Understanding, index: ViewIndex, extraFilters: QueryFilter[] = [], members?: string[]): ExplainInput {
  const filters: QueryFilter[] = [...(queryOf(u).filters ?? []), ...extraFilters];
  const seg = u.segments;
  const entity = seg ? entityOf(seg.member) : undefined;
  const candidates = groupingsOf(index)
    .map((d) => d.name)
    .filter((name) => !seg || (name !== seg.member && (entity === undefined || entityOf(name) !== entity)))
    // Where the surface allows only some members, only those are explained by.
    .filter((name) => !members || members.includes(name));
  const limit = 10;
  if (seg) {
    const side = (value: string) => ({ filters: [{ member: seg.member, operator: "equals" as const, values: [value] }] });
    const range = u.time?.range ? [{ member: u.time.dimension, operator: "inDateRange" as const, values: [u.time.range.from, u.time.range.to] }] : [];
    const shared = [...range, ...filters];
    return {
      measure: u.measures[0]!,
      baseline: side(seg.baseline),
      current: side(seg.current),
      candidates,
      ...(shared.length ? { filters: shared } : {}),
      limit,
    };
  }
  return {
    measure: u.measures[0]!,
    timeDimension: u.periods!.dimension,
    baseline: [u.periods!.baseline.from, u.periods!.baseline.to],
    current: [u.periods!.current.from, u.periods!.current.to],
    candidates,
    ...(filters.length ? { filters } : {}),
    limit,
  };
}

/** Answers an explaining understanding; `partId` names each emitted part. */
export async function explainAnswer(u: Understanding, ctx: TurnContext, indexes: ViewIndex[], emit: Emit, partId: () => string): Promise<boolean> {
  const index = indexes.find((i) => i.source.name === u.view)!;
  const say = SAY[u.language];
  const input = explainInputOf(u, index, ctx.extraFilters ?? [], ctx.members);
  emit({ id: partId(), type: "tool_call", name: "explain_change", arguments: input });
  const named = [input.measure, ...(input.timeDimension ? [input.timeDimension] : []), ...(u.segments ? [u.segments.member] : [])];
  if (ctx.members && (named.some((m) => !ctx.members!.includes(m)) || input.candidates.length === 0)) {
    emit({ id: partId(), type: "tool_result", name: "explain_change", ok: false, summary: "outside the members this surface allows" });
    emit({ id: partId(), type: "text", text: say.cannot });
    return false;
  }
  try {
    const result = await explainChange(ctx.engine, input, { securityContext: ctx.securityContext, signal: ctx.signal, timeoutMs: ctx.queryTimeoutMs });
    emit({ id: partId(), type: "tool_result", name: "explain_change", ok: true, summary: `${result.contributors.length} rows` });
    const format = index.source.measures.find((m) => m.name === u.measures[0])?.format;
    emit({
      id: partId(),
      type: "table",
      // Headed in the answer's language.
      columns: explainColumns(u.language, format),
      // Values by their labels in the answer's language, as the text names them (a country's name, the dictionary's word).
      rows: result.contributors.map((c) => ({
        ...c,
        dimension: index.members.find((m) => m.name === c.dimension)?.shortTitle ?? c.dimension,
        value: c.value === null ? null : shownValue(ctx.valueLabel, c.dimension, c.value),
      })),
      truncated: false,
    });
    emit({ id: partId(), type: "text", text: summarizeExplanation(u, result, indexes, format, ctx.valueLabel) });
    return true;
  } catch (e) {
    if (!(e instanceof QueryValidationError)) throw e;
    emit({ id: partId(), type: "tool_result", name: "explain_change", ok: false, summary: e.message });
    emit({ id: partId(), type: "text", text: `${say.cannot} ${e.message}` });
    return false;
  }
}
