/**
 * The AI feature's shared types: the parts of an answer (what the chat API streams and stores),
 * the context a turn runs in, and the provider interface.
 */
import type { PeriodComparison } from "../../schema/dashboard";
import type { SemanticQuery, TimePart } from "../../schema/semantic-query";
import type { QueryEngine } from "../semantic";
import type { LoadResult } from "../semantic/query-engine";
import type { SecurityContext } from "../semantic/security-context";

/** One piece of an answer, streamed as a delta and kept in the message's state. */
export type AnswerPart =
  | { id: string; type: "text"; text: string }
  | { id: string; type: "tool_call"; name: string; arguments: unknown }
  | { id: string; type: "tool_result"; name: string; ok: boolean; summary: string }
  | { id: string; type: "query"; query: SemanticQuery; periodComparisons?: PeriodComparison[]; sql?: string }
  | {
      id: string;
      type: "table";
      /** `output`: which figure of a compared measure a column is (baseline, current, change, relativeChange); differences are shown signed. */
      /** `valueLabels`: the text shown for a raw value of the column in the viewer's language (the rows keep raw values). */
      columns: { key: string; title: string; type: string; format?: string; timePart?: TimePart; output?: string; valueLabels?: Record<string, string> }[];
      rows: Record<string, unknown>[];
      truncated: boolean;
    }
  | { id: string; type: "chart"; spec: Record<string, unknown>; chart: ChartRequest }
  | { id: string; type: "suggestions"; suggestions: string[] };

/** What `render_chart` takes. */
export interface ChartRequest {
  type: "bar" | "line" | "area" | "point" | "arc";
  x: string;
  y: string[];
  series?: string;
}

/** Where a turn runs: who asks, on which deployment, with which engine and limits. */
export interface TurnContext {
  deploymentId: number;
  engine: QueryEngine;
  securityContext: SecurityContext;
  /** The language of the surface (`en`, `de`, `es`, …); the builtin engine also reads the question's own. */
  locale: string;
  /** Whether `save_report` is offered (`allowChatWorkspaceAuthoring`). */
  allowAuthoring: boolean;
  /** Saves a report from a query (creator mode); absent where authoring is not allowed. */
  saveReport?: (input: { title: string; query: SemanticQuery }) => Promise<{ id: string; title: string }>;
  /** Filters the surface adds to every query (dashboard chat: the dashboard's filters). */
  extraFilters?: SemanticQuery["filters"];
  /** The views the question may use (dashboard chat: the dashboard's views). */
  views?: string[];
  /** When set, the only members a query may name (the AI widget: those of the dashboard's reports and filters). */
  members?: string[];
  /** Ends the turn (time budget, client gone). */
  signal: AbortSignal;
  /** Time one query may take in the database. */
  queryTimeoutMs: number;
  /** Include the compiled SQL with each query part (creator mode switches). */
  includeSql: boolean;
  /** The surface's content language applied to a query's result (member titles, docs/translation.md); absent: as the model has them. */
  translate?: (result: LoadResult) => LoadResult;
  /** A member's title in the surface's language, for what the builtin engine writes (its reading of the question). */
  memberTitle?: (member: string, title: string) => string;
  /**
   * A dimension value's text in the surface's language, for the sentences the builtin engine writes
   * (the dictionary's `values`, a country or language code's name); undefined: the raw value.
   */
  valueLabel?: (member: string, value: unknown) => string | undefined;
  /**
   * `translate`, `memberTitle` and `valueLabel` for another locale: the builtin engine answers in
   * the question's language, and names members and values in it when that is not the surface's.
   */
  contentIn?: (locale: string) => Promise<Pick<TurnContext, "translate" | "memberTitle" | "valueLabel">>;
}

/** A message of the thread so far, as a provider sees it (text only: no ids, no secrets). */
export interface HistoryMessage {
  role: "user" | "assistant";
  content: string;
}

/** Emits one part of the answer as it is produced. */
export type Emit = (part: AnswerPart) => void;

/** A provider answers one question; it emits parts and resolves when done (or throws an AiError). */
export interface AiProvider {
  readonly name: "builtin" | "openai-compatible";
  answer(question: string, history: HistoryMessage[], ctx: TurnContext, emit: Emit): Promise<void>;
}

/** A failure the chat reports to its user as `{"error": {"code", "message"}}`. */
export class AiError extends Error {
  constructor(
    readonly code: "ai_rate_limited" | "ai_provider_failed" | "ai_timeout" | "ai_step_limit" | "ai_disabled" | "ai_invalid_response",
    message: string,
  ) {
    super(message);
    this.name = "AiError";
  }
}

/** At most this many tool steps in one turn. */
export const MAX_STEPS = 6;
/** At most this many characters of a tool result go back to a model. */
export const MAX_TOOL_RESULT_CHARS = 8_000;
/** At most this many rows of a query go back to a model. */
export const MAX_ROWS_TO_MODEL = 50;
/** At most this many rows are kept in a table part. */
export const MAX_TABLE_ROWS = 500;
