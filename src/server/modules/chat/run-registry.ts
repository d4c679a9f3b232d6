/**
 * The answers this node is writing, by thread and messageId (docs/ai.md "How a chat run
 * proceeds"). One registry per app (`createApp` makes it, or takes the one in its deps): runs
 * live in this node's memory only, so another node, or this one after a restart, knows them
 * through what is stored — the `running` row, then the answer.
 */
import { DomainError } from "../../domain/errors";
import { isAnswering, isFinal, next, type RunEvent, type RunState } from "./run-state";

/** One line of the NDJSON stream. */
export type Line = Record<string, unknown>;

/** Receives each line as it is said, then null when the stream of the run ends. */
export type LineListener = (line: Line | null) => void;

/** An answer this node is writing. */
export interface ChatRun {
  readonly threadId: string;
  readonly messageId: string;
  /** The owner of the thread (`ownerOf`): a list of their threads waits for their answers being stored. */
  readonly ownerKey: string;
  readonly state: RunState;
  /** The lines said so far: what a rejoin replays first. */
  readonly lines: readonly Line[];
  /** In `storing`: resolves when the write of the answer has ended. */
  readonly stored: Promise<void> | null;
}

interface HeldRun extends ChatRun {
  state: RunState;
  lines: Line[];
  stored: Promise<void> | null;
  listeners: Set<LineListener>;
}

/** What goes with a transition. */
export interface TransitionInput {
  /** A line said as the run takes the event (`__cutoff__`, or the last line). */
  line?: Line;
  /** With `answered`: the write of the answer, which `stored` follows. */
  stored?: Promise<void>;
}

export type ChatRunRegistry = ReturnType<typeof createChatRunRegistry>;

export function createChatRunRegistry() {
  const runs = new Map<string, HeldRun>();
  const keyOf = (threadId: string, messageId: string) => `${threadId}/${messageId}`;
  // Only the registry changes a run, and only one it holds (a run is held until it is final).
  const held = (run: ChatRun): HeldRun => {
    const found = runs.get(keyOf(run.threadId, run.messageId));
    if (!found || found !== run) throw new DomainError("internal_error", "Not a chat run this node holds");
    return found;
  };

  function say(run: HeldRun, line: Line) {
    run.lines.push(line);
    for (const listener of run.listeners) listener(line);
  }

  function advance(chatRun: ChatRun, event: RunEvent, input: TransitionInput = {}) {
    const run = held(chatRun);
    const to = next(run.state, event);
    if (to === null) throw new DomainError("internal_error", `A chat run cannot take "${event}" when ${run.state}`);
    if (input.line) say(run, input.line);
    if (event === "answered") run.stored = input.stored ?? Promise.resolve();
    run.state = to;
    if (!isAnswering(to) && run.listeners.size > 0) {
      for (const listener of run.listeners) listener(null);
      run.listeners.clear();
    }
    if (isFinal(to)) runs.delete(keyOf(run.threadId, run.messageId));
  }

  return {
    /**
     * The run of this answer: the one held, or a new `pending` one. Claimed at once, so a second
     * post of the same messageId while the first starts joins it instead of starting another.
     */
    claim(threadId: string, messageId: string, ownerKey: string): { run: ChatRun; isNew: boolean } {
      const key = keyOf(threadId, messageId);
      const found = runs.get(key);
      if (found) return { run: found, isNew: false };
      const run: HeldRun = { threadId, messageId, ownerKey, state: "pending", lines: [], stored: null, listeners: new Set() };
      runs.set(key, run);
      return { run, isNew: true };
    },

    /** The run of this answer, when this node holds it. */
    find(threadId: string, messageId: string): ChatRun | undefined {
      return runs.get(keyOf(threadId, messageId));
    },

    /** Moves a run on (`next`); an event its state does not take is refused (internal_error). A final run is forgotten. */
    advance,

    /** Says a line of an answer still being written; once its last line is said, a line is refused. */
    say(chatRun: ChatRun, line: Line) {
      const run = held(chatRun);
      if (!isAnswering(run.state)) throw new DomainError("internal_error", `A chat run cannot say more when ${run.state}`);
      say(run, line);
    },

    /** Follows the lines said from now on; returns the unfollow. A run whose stream has ended has none. */
    listen(chatRun: ChatRun, listener: LineListener): () => void {
      if (!isAnswering(chatRun.state)) return () => {};
      const run = held(chatRun);
      run.listeners.add(listener);
      return () => run.listeners.delete(listener);
    },

    /** Cancels the runs of a thread that are still being written (it is being deleted). */
    cancelThread(threadId: string) {
      for (const run of runs.values()) if (run.threadId === threadId && next(run.state, "cancel") !== null) advance(run, "cancel");
    },

    /** Resolves when the answers being stored that `match` are stored. */
    async settled(match: (run: ChatRun) => boolean): Promise<void> {
      const waiting = [...runs.values()].filter((run) => run.state === "storing" && match(run)).map((run) => run.stored);
      if (waiting.length) await Promise.all(waiting);
    },

    /** Whether an answer is being written on this node. */
    isAnswering(threadId: string, messageId: string): boolean {
      const run = runs.get(keyOf(threadId, messageId));
      return run !== undefined && isAnswering(run.state);
    },

    /** How many runs are held. */
    get size() {
      return runs.size;
    },
  };
}
