import { afterEach, describe, expect, it } from "vitest";
import { aiContextInWords } from "../surfaces/chat/ai-context-header";
import { aiContextStore, applyAiContextAction } from "./ai-context";

const applied = { title: "EU", views: ["sales"], filters: [{ member: "sales.customers_country", operator: "equals" as const, value: ["DE", "FR"] }] };
afterEach(() => aiContextStore.setState({ sent: null, applied: null, check: null }));

describe("applyAiContextAction", () => {
  it("waits for the chat to check it, then applies what the platform accepted and says what", async () => {
    const pending = applyAiContextAction({ title: "EU", filters: [{ member: "sales.customers_country", value: ["DE", "FR"] }], views: ["sales"] });
    aiContextStore.setState({ check: async () => applied });
    await expect(pending).resolves.toEqual({ status: "applied", reason: "title; filters=sales.customers_country; views=sales" });
    expect(aiContextStore.getState().applied).toEqual(applied);
    expect(aiContextStore.getState().sent).toMatchObject({ views: ["sales"] });
  });

  it("rejects with the platform's reason and keeps the context in force", async () => {
    aiContextStore.setState({ sent: { title: "EU" }, applied, check: async () => Promise.reject(new Error('Invalid AI context: views.0: unknown view "x"')) });
    await expect(applyAiContextAction({ views: ["x"] })).resolves.toEqual({
      status: "rejected",
      reason: 'invalid-context: Invalid AI context: views.0: unknown view "x"',
    });
    expect(aiContextStore.getState().applied).toEqual(applied);
  });

  it("in a frame that has not shown the chat, answers ignored at once, and applies once the chat can check it", async () => {
    await expect(applyAiContextAction({ title: "EU" }, { waitForChat: false })).resolves.toEqual({ status: "ignored", reason: "chat-not-shown" });
    expect(aiContextStore.getState().sent).toBeNull();
    aiContextStore.setState({ check: async () => applied });
    await expect(applyAiContextAction({ title: "EU" }, { waitForChat: false })).resolves.toMatchObject({ status: "applied" });
    expect(aiContextStore.getState().applied).toEqual(applied);
  });

  it("clears on an empty context without asking the platform", async () => {
    aiContextStore.setState({ sent: { title: "EU" }, applied });
    await expect(applyAiContextAction({})).resolves.toEqual({ status: "applied", reason: "cleared" });
    expect(aiContextStore.getState()).toMatchObject({ sent: null, applied: null });
  });
});

describe("aiContextInWords", () => {
  const sources = [{ name: "sales", title: "Sales", dimensions: [{ name: "sales.customers_country", title: "Sales Country", shortTitle: "Country" }] }];
  it.each([
    ["en-US", "Country: DE or FR · Views: Sales"],
    ["de-DE", "Country: DE oder FR · Sichten: Sales"],
    ["ja-JP", "Country: DE または FR · ビュー: Sales"],
  ] as const)("words the filters and views in %s", (locale, words) => {
    expect(aiContextInWords(locale, applied, sources)).toBe(words);
  });
  it("signs the other operators and formats numbers for the locale", () => {
    const between = { views: ["sales"], filters: [{ member: "sales.amount", operator: "between" as const, value: [1000, 2500] }] };
    expect(aiContextInWords("de-DE", between, sources)).toBe("sales.amount: 1.000 – 2.500 · Sichten: Sales");
    const not = { views: ["sales"], filters: [{ member: "sales.customers_country", operator: "not_equals" as const, value: "DE" }] };
    expect(aiContextInWords("en-US", not, sources)).toBe("Country: ≠ DE · Views: Sales");
  });
});
