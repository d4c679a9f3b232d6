import { describe, expect, it } from "vitest";
import { dateOrder, datePlaceholder, formatDateText, parseDateText } from "./date-text";

describe("dates as the viewer's locale writes them", () => {
  it.each([
    ["de-DE", "15.03.2025", "TT.MM.JJJJ"],
    ["es-ES", "15/03/2025", "DD/MM/AAAA"],
    ["en-US", "03/15/2025", "MM/DD/YYYY"],
    ["en-GB", "15/03/2025", "DD/MM/YYYY"],
    ["fr-FR", "15/03/2025", "JJ/MM/AAAA"],
  ])("writes and reads %s: %s, placeholder %s", (locale, text, placeholder) => {
    expect(formatDateText("2025-03-15", locale)).toBe(text);
    expect(parseDateText(text, locale)).toBe("2025-03-15");
    expect(datePlaceholder(locale)).toBe(placeholder);
  });

  it("reads year first where the locale writes it so", () => {
    expect(dateOrder("ja-JP")).toEqual(["year", "month", "day"]);
    expect(parseDateText(formatDateText("2025-03-15", "ja-JP"), "ja-JP")).toBe("2025-03-15");
    expect(parseDateText("2025/3/15", "ja-JP")).toBe("2025-03-15");
  });

  it("takes any separator, single digits and a two-digit year", () => {
    expect(parseDateText("1-2-25", "de-DE")).toBe("2025-02-01");
    expect(parseDateText(" 1 2 2025 ", "de-DE")).toBe("2025-02-01");
    expect(parseDateText("2/1/2025", "en-US")).toBe("2025-02-01");
  });

  it("refuses what is not a whole, existing date", () => {
    for (const text of ["", "15.03", "31.02.2025", "15.13.2025", "00.01.2025", "1.2.3.4", "abc", "15.03.99999"])
      expect(parseDateText(text, "de-DE"), text).toBeNull();
    expect(formatDateText("2025-3-15", "de-DE")).toBe("");
    expect(formatDateText("", "de-DE")).toBe("");
  });
});
