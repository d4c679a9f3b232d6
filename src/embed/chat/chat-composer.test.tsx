// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatComposer, ChatStarters } from "./chat-composer";
import { mergePart } from "./use-chat-conversation";

afterEach(cleanup);

describe("the chat's question box", () => {
  it("sends on Enter and empties itself; Shift+Enter is a new line; nothing blank or while an answer streams", () => {
    const onAsk = vi.fn();
    const { rerender } = render(<ChatComposer locale="en-US" busy={false} onAsk={onAsk} />);
    const input = screen.getByTestId("chat-input") as HTMLTextAreaElement;
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onAsk).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: "revenue by country" } });
    fireEvent.keyDown(input, { key: "Enter", shiftKey: true });
    expect(onAsk).not.toHaveBeenCalled();
    rerender(<ChatComposer locale="en-US" busy onAsk={onAsk} />);
    expect(screen.getByTestId("chat-send")).toHaveProperty("disabled", true);
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onAsk).not.toHaveBeenCalled();
    rerender(<ChatComposer locale="en-US" busy={false} onAsk={onAsk} />);
    fireEvent.keyDown(input, { key: "Enter" });
    expect(onAsk).toHaveBeenCalledWith("revenue by country");
    expect(input.value).toBe("");
  });

  it("offers the starters in the viewer's language, each asking its question", () => {
    const onAsk = vi.fn();
    render(<ChatStarters locale="de-DE" intro="Fragen Sie nach Ihren Daten." starters={["Umsatz nach Land"]} onAsk={onAsk} />);
    expect(screen.getByText("Fragen Sie nach Ihren Daten.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Umsatz nach Land" }));
    expect(onAsk).toHaveBeenCalledWith("Umsatz nach Land");
    expect(screen.queryByText("Try asking")).toBeNull();
  });
});

describe("mergePart", () => {
  it("continues the text part a delta belongs to, and adds any other part", () => {
    const parts = mergePart([{ type: "text", id: "t1", text: "Electronics " }], { type: "text", id: "t1", text: "sells most." });
    expect(parts).toEqual([{ type: "text", id: "t1", text: "Electronics sells most." }]);
    expect(mergePart(parts, { type: "text", id: "t2", text: "Next." })).toHaveLength(2);
  });
});
