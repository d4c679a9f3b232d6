import { describe, expect, it } from "vitest";
import { createValueLabelMemory } from "./value-label-memory";

describe("createValueLabelMemory", () => {
  it("keeps labels per member and locale, and knows nothing of other values", () => {
    const memory = createValueLabelMemory();
    memory.remember("sales.status", "de-DE", { completed: "abgeschlossen" });
    memory.remember("sales.status", "de-DE", undefined);
    expect(memory.labelOf("sales.status", "de-DE", "completed")).toBe("abgeschlossen");
    expect(memory.labelOf("sales.status", "es-ES", "completed")).toBeUndefined();
    expect(memory.labelOf("sales.products_category", "de-DE", "completed")).toBeUndefined();
    expect(memory.labelOf("sales.status", "de-DE", "__proto__")).toBeUndefined();
  });
});
