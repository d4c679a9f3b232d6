/**
 * Browser stand-ins for bridge tests: an embed window framed by a host window, and a
 * message event as the browser would deliver it.
 */
import type { EmbedWindow } from "./embed-bridge";

export const HOST = "https://host.example";

export interface PostedMessage {
  message: Record<string, unknown> & { type: string; payload: Record<string, unknown> };
  targetOrigin: string;
}

export interface TestFrameOptions {
  ancestorOrigins?: string[] | null;
  referrer?: string;
  framed?: boolean;
}

export function createTestFrame(options: TestFrameOptions = {}) {
  const posted: PostedMessage[] = [];
  const listeners = new Set<(event: MessageEvent) => void>();
  const parent = {
    postMessage(message: unknown, targetOrigin: string) {
      posted.push({ message: message as PostedMessage["message"], targetOrigin });
    },
  };
  const win = {
    parent: parent as EmbedWindow["parent"],
    location: { ancestorOrigins: options.ancestorOrigins === undefined ? [HOST] : options.ancestorOrigins },
    document: { referrer: options.referrer ?? "" },
    addEventListener: (_type: "message", listener: (event: MessageEvent) => void) => listeners.add(listener),
    removeEventListener: (_type: "message", listener: (event: MessageEvent) => void) => listeners.delete(listener),
    postMessage: parent.postMessage,
  };
  if (options.framed === false) win.parent = win;
  const sibling = { postMessage() {} };
  return {
    win: win as EmbedWindow,
    parent,
    sibling,
    posted,
    listeners,
    /** Events posted so far, by type. */
    eventsOf: (type: string) => posted.filter((p) => p.message.type === type).map((p) => p.message),
  };
}

export function messageEvent(source: unknown, origin: string, data: unknown): MessageEvent {
  return { source, origin, data } as unknown as MessageEvent;
}

export function actionMessage(type: string, payload: unknown, extra: Record<string, unknown> = {}) {
  return { source: "svc-embed", direction: "action", type, payload, timestamp: Date.now(), ...extra };
}
