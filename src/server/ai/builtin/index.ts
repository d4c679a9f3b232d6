/**
 * The builtin question engine: answers questions about the data model without a language
 * model. It reads a question (English, German or Spanish) as measures, groupings, filters on
 * known dimension values, a time range and "top N", builds a semantic query from them and
 * runs it through the same tools a model would use — under the viewer's security context.
 * What it cannot map onto the model it says so, with questions that work; it never invents
 * a number.
 */
import { SAY } from "../builtin-language";
import { runTool, type ToolCallOptions, type ToolOutcome, type ToolState } from "../tools";
import type { AiProvider, AnswerPart, Emit, TurnContext } from "../types";
import { chartFor } from "./chart";
import { explainAnswer } from "./explain";
import { rankedByChange, runQueryArgs } from "./query";
import { readQuestion } from "./question";
import { titleFields } from "./ratio";
import { refusalText } from "./refusal";
import { describeUnderstanding } from "./describe";
import { summarize } from "./summary";
import { suggestionsFor } from "./suggestions";
import { viewerIndexes } from "./viewer-indexes";
import { inLanguage, sentenceColumns, titledIndexes } from "./words";
import { localColumns } from "./column-words";
import type { ViewIndex } from "./view-index";

export { comparisonsOf, queryOf, rankedByChange, runQueryArgs } from "./query";
export { readQuestion } from "./question";
export { refusalText } from "./refusal";
export { describeUnderstanding } from "./describe";
export { summarize } from "./summary";
export { suggestionsFor } from "./suggestions";
export { comparisonColumns, type Reading, type Understanding } from "./understanding";
export { indexView, type ViewIndex } from "./view-index";
export { viewerIndexes } from "./viewer-indexes";

let partSeq = 0;
const partId = () => `p${Date.now().toString(36)}${(partSeq++).toString(36)}`;

/**
 * Runs one tool and streams its call, its result and the parts it produced. `built`: the
 * arguments were built by this engine's typed code, not received from a model (tools.ts).
 */
export async function callTool(
  name: string,
  args: unknown,
  ctx: TurnContext,
  state: ToolState,
  emit: Emit,
  after?: (outcome: ToolOutcome) => ToolOutcome,
  options: ToolCallOptions = {},
) {
  const shown = typeof args === "string" ? (args.length > 2000 ? args.slice(0, 2000) + "…" : args) : args;
  emit({ id: partId(), type: "tool_call", name: name.slice(0, 100), arguments: shown });
  let outcome = await runTool(name, args, ctx, state, options);
  if (after && outcome.ok) outcome = after(outcome);
  emit({ id: partId(), type: "tool_result", name, ok: outcome.ok, summary: outcome.summary });
  for (const p of outcome.parts) emit({ ...p, id: partId() } as AnswerPart);
  return outcome;
}

export { partId };

/** The builtin provider: reads the question, runs it through the tools, writes the answer. */
export const builtinProvider: AiProvider = {
  name: "builtin",
  async answer(question, _history, ctx, emit) {
    const state: ToolState = {};
    // The engine's own calls: their arguments are built by the code below, not parsed again (tools.ts).
    const built = { built: true };
    await callTool("list_views", {}, ctx, state, emit, undefined, built);
    const { indexes, reference } = await viewerIndexes(ctx);
    const reading = readQuestion(question, indexes, { locale: ctx.locale, reference });
    if (!reading.ok) {
      const say = SAY[reading.language];
      // What the data holds, named in the answer's language.
      const shown = reading.refusal?.kind === "unknown" ? titledIndexes(indexes, (await inLanguage(ctx, reading.language)).memberTitle) : indexes;
      const text =
        reading.refusal?.kind === "write"
          ? say.readOnly
          : `${say.cannot} ${reading.refusal ? refusalText(reading.language, reading.refusal, shown) : say.noMatch(reading.unmatched)}\n\n${say.tryThese}`;
      emit({ id: partId(), type: "text", text });
      emit({ id: partId(), type: "suggestions", suggestions: suggestionsFor(indexes, reading.language) });
      return;
    }
    const u = reading.understanding;
    await callTool("describe_view", { view: u.view }, ctx, state, emit, undefined, built);
    // Members and values named in the answer's language (the reading itself used the model's words).
    const turn = await inLanguage(ctx, u.language);
    const shown = titledIndexes(indexes, turn.memberTitle);
    // Follow-ups name members as the viewer's locale titles them where the reader knows those
    // titles (the indexes carry the locale's, viewer-indexes.ts); in another language, the model's.
    const suggestIn = turn === ctx ? shown : indexes;
    // A ratio's fields titled with the same (translated) titles and value labels.
    if (turn.memberTitle || turn.valueLabel) titleFields(u, shown.find((i) => i.source.name === u.view) ?? shown[0]!, turn.valueLabel);
    emit({ id: partId(), type: "text", text: describeUnderstanding(u, shown, reference, turn.valueLabel) + "\n\n" });
    if (u.explain) {
      const explained = await explainAnswer(u, turn, shown, emit, partId);
      emit({ id: partId(), type: "suggestions", suggestions: suggestionsFor(suggestIn, u.language, explained ? u : undefined) });
      return;
    }
    const view = (list: ViewIndex[]) => list.find((i) => i.source.name === u.view) ?? list[0]!;
    const outcome = await callTool(
      "run_query",
      runQueryArgs(u),
      turn,
      state,
      emit,
      (o) => localColumns(u.language, rankedByChange(u, o, state), state, view(shown), view(indexes)),
      built,
    );
    if (!outcome.ok) {
      const say = SAY[u.language];
      emit({ id: partId(), type: "text", text: `${say.cannot} ${outcome.summary}` });
      emit({ id: partId(), type: "suggestions", suggestions: suggestionsFor(suggestIn, u.language) });
      return;
    }
    const chart = state.lastRows && state.lastRows.length > 1 ? chartFor(u) : null;
    // The chart speaks the answer's language (the question's), like its text.
    if (chart) await callTool("render_chart", chart, { ...turn, locale: u.language }, state, emit, undefined, built);
    const columns = sentenceColumns(state.lastColumns ?? [], u, shown);
    emit({ id: partId(), type: "text", text: summarize(u, state.lastRows ?? [], columns, turn.valueLabel) });
    emit({ id: partId(), type: "suggestions", suggestions: suggestionsFor(suggestIn, u.language, u) });
  },
};
