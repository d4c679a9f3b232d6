/**
 * One answer of the chat: the steps it took (collapsible), its text (Markdown, sanitised),
 * tables and charts inline, the semantic query (and SQL where the platform sends it), and
 * follow-up suggestions.
 */
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { DEFAULT_LOCALE, isSupportedLocale } from "../i18n";
import { formatCell } from "../widgets/query/format-cell";
import { renderMarkdown } from "../widgets/text/render-markdown";
import { VegaView } from "../widgets/chart/vega-view";
import { buildVegaConfig } from "../widgets/chart/vega-theme";
import { useChartPalette } from "../widgets/chart/use-chart-palette";
import type { VegaLiteSpec } from "../widgets/chart/vega-spec";
import { answerChartHeight, answerChartSpec } from "./answer-chart-spec";
import { AlertIcon, ChevronDownIcon, SparkIcon } from "../ui/icons";
import { answerColumnsOf, queryPartOf } from "./answer-columns";
import { chatText } from "./chat-messages";
import type { ChatMessageView, ChatPart } from "./chat-api";

const TABLE_ROWS_SHOWN = 50;

function Markdown(props: { text: string }) {
  const [html, setHtml] = useState("");
  useEffect(() => {
    let live = true;
    void renderMarkdown(props.text).then((h) => {
      if (live) setHtml(h);
    });
    return () => {
      live = false;
    };
  }, [props.text]);
  return <div className="svc-chat-text" dangerouslySetInnerHTML={{ __html: html }} />;
}

function AnswerTable(props: { part: ChatPart; queryPart: ChatPart | undefined; locale: string }) {
  const columns = useMemo(() => answerColumnsOf(props.part, props.queryPart), [props.part, props.queryPart]);
  const rows = (props.part.rows ?? []) as Record<string, unknown>[];
  const ctx = { locale: isSupportedLocale(props.locale) ? props.locale : DEFAULT_LOCALE, timezone: null };
  // Amounts are right-aligned; a part of time is a number shown as a name ("Monday", "March"), read as text.
  const aligned = (c: (typeof columns)[number]) => (c.type === "number" && !c.timePart ? "is-number" : undefined);
  return (
    <div className="svc-chat-table-wrap">
      <table className="svc-chat-table" data-testid="chat-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} className={aligned(c)} scope="col">
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, TABLE_ROWS_SHOWN).map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.key} className={aligned(c)}>
                  {formatCell(r[c.key], c, ctx)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="svc-chat-table-foot">
        {rows.length > TABLE_ROWS_SHOWN ? chatText(props.locale, "moreRows", { n: TABLE_ROWS_SHOWN }) : chatText(props.locale, "rows", { n: rows.length })}
      </p>
    </div>
  );
}

function AnswerChart(props: { part: ChatPart; description: string }) {
  const palette = useChartPalette();
  const height = answerChartHeight(props.part.spec as VegaLiteSpec);
  const spec = useMemo(
    () =>
      ({
        ...answerChartSpec(props.part.spec as VegaLiteSpec),
        width: "container",
        height,
        autosize: { type: "fit", contains: "padding" },
        config: buildVegaConfig(palette),
      }) as VegaLiteSpec,
    [props.part.spec, palette, height],
  );
  return (
    // The drawing's height and 40 px for the axis below it.
    <div className="svc-chat-chart" data-testid="chat-chart" style={{ height: height + 40 }}>
      <VegaView spec={spec} description={props.description} />
    </div>
  );
}

function Steps(props: { parts: ChatPart[]; running: boolean; locale: string }) {
  const results = props.parts.filter((p) => p.type === "tool_result");
  const calls = props.parts.filter((p) => p.type === "tool_call");
  if (calls.length === 0) return null;
  return (
    <details className="svc-chat-steps" data-testid="chat-steps" open={props.running || undefined}>
      <summary>
        <ChevronDownIcon size={14} />
        <span>{chatText(props.locale, "stepsCount", { n: calls.length })}</span>
      </summary>
      <ol>
        {calls.map((c, i) => {
          const r = results[i];
          return (
            <li key={c.id} className={r ? (r.ok ? "is-ok" : "is-failed") : "is-running"}>
              <code>{String(c.name)}</code>
              {r ? <span className="svc-chat-step-summary">{String(r.summary ?? "")}</span> : <span className="svc-chat-spinner" aria-hidden="true" />}
            </li>
          );
        })}
      </ol>
    </details>
  );
}

export function ChatAnswer(props: { message: ChatMessageView; locale: string; onAsk?: (q: string) => void; showQuery: boolean; actions?: ReactNode }) {
  const { message, locale } = props;
  const running = message.status === "running";
  // Words first, then the chart, the table, the query and the follow-ups.
  const rank: Record<string, number> = { text: 0, chart: 1, table: 2, query: 3, suggestions: 4 };
  const visible = message.parts.filter((p) => p.type in rank).sort((a, b) => rank[a.type]! - rank[b.type]!);
  const description = (message.parts.find((p) => p.type === "text")?.text as string | undefined)?.slice(0, 200) ?? "chart";
  return (
    <article className="svc-chat-answer" data-testid="chat-answer" data-status={message.status} aria-busy={running}>
      <div className="svc-chat-avatar" aria-hidden="true">
        <SparkIcon size={16} />
      </div>
      <div className="svc-chat-answer-body">
        <Steps parts={message.parts} running={running} locale={locale} />
        {visible.map((p) => {
          if (p.type === "text") return <Markdown key={p.id} text={String(p.text ?? "")} />;
          if (p.type === "table") return <AnswerTable key={p.id} part={p} queryPart={queryPartOf(message.parts, p)} locale={locale} />;
          if (p.type === "chart") return <AnswerChart key={p.id} part={p} description={description} />;
          if (p.type === "query" && props.showQuery)
            return (
              <details key={p.id} className="svc-chat-query" data-testid="chat-query">
                <summary>
                  <ChevronDownIcon size={14} />
                  {chatText(locale, "query")}
                </summary>
                <pre>{JSON.stringify(p.periodComparisons ? { query: p.query, periodComparisons: p.periodComparisons } : p.query, null, 2)}</pre>
                {typeof p.sql === "string" ? (
                  <>
                    <p className="svc-chat-query-label">{chatText(locale, "sql")}</p>
                    <pre>{p.sql}</pre>
                  </>
                ) : null}
              </details>
            );
          if (p.type === "suggestions" && !running && props.onAsk)
            return (
              <div key={p.id} className="svc-chat-suggestions" data-testid="chat-suggestions">
                {((p.suggestions ?? []) as string[]).map((s) => (
                  <button key={s} type="button" className="svc-chat-suggestion" onClick={() => props.onAsk!(s)}>
                    {s}
                  </button>
                ))}
              </div>
            );
          return null;
        })}
        {running ? (
          <p className="svc-chat-thinking" role="status">
            <span className="svc-chat-spinner" aria-hidden="true" />
            {chatText(locale, "thinking")}
          </p>
        ) : null}
        {message.status === "error" ? (
          <p className="svc-chat-error" role="alert" data-testid="chat-error">
            <AlertIcon size={16} />
            {chatText(locale, "failed")}
            {message.error ? `: ${message.error.message}` : ""}
          </p>
        ) : null}
        {props.actions ? <div className="svc-chat-answer-actions">{props.actions}</div> : null}
      </div>
    </article>
  );
}
