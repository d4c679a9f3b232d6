/** The NDJSON stream a client reads of a run: what has been said so far, then what follows. */
import type { ChatRun, ChatRunRegistry, Line } from "./run-registry";
import { isAnswering } from "./run-state";

/**
 * A stream of the run's lines. An answer still being written is followed to its end; one that
 * has been said to its end (being stored) is given as a stored answer is: `__cutoff__` and its
 * last line.
 */
export function followRun(runs: ChatRunRegistry, run: ChatRun): ReadableStream<Uint8Array> {
  if (isAnswering(run.state)) return streamOf(run.lines, (listener) => runs.listen(run, listener));
  const lines = run.state === "storing" ? [run.lines[0]!, run.lines[run.lines.length - 1]!] : run.lines;
  return streamOf(lines, null);
}

function streamOf(said: readonly Line[], listen: ((listener: (line: Line | null) => void) => () => void) | null): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let unlisten: (() => void) | undefined;
  // Lines said in one turn of the event loop go out as one chunk: an answer that is ready at
  // once is one write, one that waits on a model still streams as it comes.
  let pending = "";
  let scheduled: NodeJS.Immediate | null = null;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const flush = () => {
        scheduled = null;
        if (!pending) return;
        const chunk = pending;
        pending = "";
        try {
          controller.enqueue(encoder.encode(chunk));
        } catch {
          // the client went away; the answer goes on being written
        }
      };
      pending = said.map((line) => JSON.stringify(line) + "\n").join("");
      flush();
      if (!listen) {
        controller.close();
        return;
      }
      unlisten = listen((line) => {
        if (line === null) {
          if (scheduled) clearImmediate(scheduled);
          flush();
          try {
            controller.close();
          } catch {
            // already closed: the client went away
          }
          return;
        }
        pending += JSON.stringify(line) + "\n";
        scheduled ??= setImmediate(flush);
      });
    },
    cancel() {
      if (scheduled) clearImmediate(scheduled);
      unlisten?.();
    },
  });
}
