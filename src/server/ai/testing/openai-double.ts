/**
 * A test double of an OpenAI-compatible server (`POST /v1/chat/completions`, streamed): what
 * it does is chosen by the script of the question (the last user message), and it records
 * every request so that tests can see what the platform sent to a model.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface RecordedRequest {
  authorization: string | undefined;
  body: {
    model: string;
    messages: { role: string; content?: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
    tools?: { function: { name: string } }[];
    stream?: boolean;
  };
}

/** One step of a scripted conversation: tool calls (arguments as raw text, split in pieces) or text. */
export type Step = { calls: { name: string; args: string }[] } | { text: string };

/** Behaviours a question can ask for. */
export type Script = { kind: "steps"; steps: Step[] } | { kind: "status"; status: number; body: string } | { kind: "stall" } | { kind: "loop" };

export interface OpenAiDouble {
  url: string;
  requests: RecordedRequest[];
  /** Scripts by the question (or the first line of the question) that selects them. */
  scripts: Map<string, Script>;
  close(): Promise<void>;
}

function chunk(res: ServerResponse, delta: Record<string, unknown>, finish: string | null = null) {
  res.write(
    `data: ${JSON.stringify({ id: "chatcmpl-double", object: "chat.completion.chunk", created: 0, model: "double", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
  );
}

/** Splits text into pieces of at most `size` characters (tool arguments arrive in fragments). */
function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [""];
}

function streamStep(res: ServerResponse, step: Step, round: number) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  chunk(res, { role: "assistant", content: "" });
  if ("text" in step) {
    for (const p of pieces(step.text, 5)) chunk(res, { content: p });
    chunk(res, {}, "stop");
  } else {
    step.calls.forEach((call, index) => {
      const name = call.name;
      // The name comes in two fragments, the id only in the first, the arguments in many.
      chunk(res, { tool_calls: [{ index, id: `call_${round}_${index}`, type: "function", function: { name: name.slice(0, 3), arguments: "" } }] });
      chunk(res, { tool_calls: [{ index, function: { name: name.slice(3) } }] });
      for (const p of pieces(call.args)) chunk(res, { tool_calls: [{ index, function: { arguments: p } }] });
    });
    chunk(res, {}, "tool_calls");
  }
  res.write("data: [DONE]\n\n");
  res.end();
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

export async function startOpenAiDouble(): Promise<OpenAiDouble> {
  const requests: RecordedRequest[] = [];
  const scripts = new Map<string, Script>();
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(await readBody(req)) as RecordedRequest["body"];
      requests.push({ authorization: req.headers.authorization, body });
      const question = [...body.messages].reverse().find((m) => m.role === "user")?.content ?? "";
      // A script is chosen by the whole question, or by its first line (a question the platform composes).
      const script = scripts.get(String(question)) ?? scripts.get(String(question).split("\n")[0]!);
      if (!script) {
        streamStep(res, { text: "I have no script for that." }, 0);
        return;
      }
      if (script.kind === "status") {
        res.writeHead(script.status, { "content-type": "application/json" }).end(script.body);
        return;
      }
      if (script.kind === "stall") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        chunk(res, { role: "assistant", content: "Let me think" });
        open.add(res);
        res.on("close", () => open.delete(res));
        return; // never ends
      }
      // The round is how many answers the model has given in this turn so far.
      const lastUser = body.messages.map((m) => m.role).lastIndexOf("user");
      const round = body.messages.slice(lastUser).filter((m) => m.role === "assistant").length;
      if (script.kind === "loop") {
        if (!body.tools?.length) streamStep(res, { text: "Stopping here." }, round);
        else streamStep(res, { calls: [{ name: "list_views", args: "{}" }] }, round);
        return;
      }
      streamStep(res, script.steps[Math.min(round, script.steps.length - 1)]!, round);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    scripts,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
