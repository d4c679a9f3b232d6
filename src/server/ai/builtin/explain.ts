/**
 * "Why did revenue fall in February 2025?": the values of the view's groupings that moved the
 * measure most between the period and the one before, through `explainChange` under the viewer's
 * row-level security (and the surface's own filters), as a table and a sentence.
 */
import type { QueryFilter } from "../../../schema/semantic-query";
import { explainChange } from "../../semantic";
import { QueryValidationError } from "../../semantic/errors";
import { SAY } from "../builtin-language";
import { explainColumns } from "../tools";
import type { Emit, TurnContext } from "../types";
import { queryOf } from "./query";
import { groupingsOf } from "./refusal";
import { summarizeExplanation } from "./summary-analysis";
import type { Understanding } from "./understanding";
import type { ViewIndex } from "./view-index";

/** Answers an explaining understanding; `partId` names each emitted part. */
export async function explainAnswer(u: Understanding, ctx: TurnContext, indexes: ViewIndex[], emit: Emit, partId: () => string): Promise<boolean> {
  const index = indexes.find((i) => i.source.name === u.view)!;
  const say = SAY[u.language];
  const filters: QueryFilter[] = [...(queryOf(u).filters ?? []), ...(ctx.extraFilters ?? [])];
  const input = {
    measure: u.measures[0]!,
    timeDimension: u.periods!.dimension,
    baseline: [u.periods!.baseline.from, u.periods!.baseline.to] as [string, string],
    current: [u.periods!.current.from, u.periods!.current.to] as [string, string],
    // Where the surface allows only some members (ctx.members), only those are explained by.
    candidates: groupingsOf(index)
      .map((d) => d.name)
      .filter((name) => !ctx.members || ctx.members.includes(name)),
    ...(filters.length ? { filters } : {}),
    limit: 10,
  };
  emit({ id: partId(), type: "tool_call", name: "explain_change", arguments: input });
  if (ctx.members && (!ctx.members.includes(input.measure) || !ctx.members.includes(input.timeDimension) || input.candidates.length === 0)) {
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
      rows: result.contributors.map((c) => ({ ...c, dimension: index.members.find((m) => m.name === c.dimension)?.shortTitle ?? c.dimension })),
      truncated: false,
    });
    emit({ id: partId(), type: "text", text: summarizeExplanation(u, result, indexes, format) });
    return true;
  } catch (e) {
    if (!(e instanceof QueryValidationError)) throw e;
    emit({ id: partId(), type: "tool_result", name: "explain_change", ok: false, summary: e.message });
    emit({ id: partId(), type: "text", text: `${say.cannot} ${e.message}` });
    return false;
  }
}
