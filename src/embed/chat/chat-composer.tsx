/**
 * The chat's question box (Enter sends, Shift+Enter starts a new line) and the starters offered
 * in an empty conversation.
 */
import { useState } from "react";
import { ArrowUpIcon } from "../ui/icons";
import { chatText } from "./chat-messages";

export function ChatComposer(props: { locale: string; busy: boolean; onAsk: (question: string) => void }) {
  const [draft, setDraft] = useState("");
  const send = () => {
    if (props.busy || draft.trim() === "") return;
    props.onAsk(draft);
    setDraft("");
  };
  return (
    <form
      className="svc-chat-composer"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <textarea
        rows={1}
        value={draft}
        maxLength={4000}
        placeholder={chatText(props.locale, "placeholder")}
        aria-label={chatText(props.locale, "placeholder")}
        data-testid="chat-input"
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            send();
          }
        }}
      />
      <button
        type="submit"
        className="svc-chat-send"
        disabled={props.busy || draft.trim() === ""}
        aria-label={chatText(props.locale, "send")}
        data-testid="chat-send"
      >
        <ArrowUpIcon size={16} />
      </button>
    </form>
  );
}

export function ChatStarters(props: { locale: string; intro?: string; starters?: string[]; onAsk: (question: string) => void }) {
  return (
    <div className="svc-chat-empty">
      {props.intro ? <p className="svc-chat-intro">{props.intro}</p> : null}
      {props.starters?.length ? (
        <>
          <p className="svc-chat-starters-title">{chatText(props.locale, "tryAsking")}</p>
          <div className="svc-chat-suggestions" data-testid="chat-starters">
            {props.starters.map((s) => (
              <button key={s} type="button" className="svc-chat-suggestion" onClick={() => props.onAsk(s)}>
                {s}
              </button>
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}
