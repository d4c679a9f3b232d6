import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { writeCsv } from "./csv";

/** The cells a spreadsheet would run as formulas, one per leading character OWASP names. */
const HOSTILE_CELLS = ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"];

describe("writeCsv", () => {
  it("neutralises every cell a spreadsheet would read as a formula, and reads back as the text with a leading apostrophe", () => {
    const csv = writeCsv(
      ["value"],
      HOSTILE_CELLS.map((v) => [v]),
    );
    const parsed = Papa.parse<string[]>(csv, { newline: "\r\n" })
      .data.slice(1)
      .map((r) => r[0]);
    expect(parsed).toEqual(HOSTILE_CELLS.map((v) => `'${v}`));
    // Each neutralised cell is quoted too, as OWASP advises.
    expect(csv.split("\r\n")[1]).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it("neutralises a formula spread over several lines (papaparse's own pattern stops at the line break)", () => {
    expect(writeCsv(["v"], [["=1+1\nmore"]])).toBe(`v\r\n"'=1+1\nmore"`);
  });

  it("neutralises the header row too", () => {
    expect(writeCsv(["=cmd()", "Revenue"], []).split("\r\n")[0]).toBe(`"'=cmd()",Revenue`);
  });

  it("keeps numbers as numbers: negative numbers, bigints and decimal-number text are not prefixed", () => {
    const csv = writeCsv(["n", "big", "text", "exact"], [[-5, -12n, "-0.5", "-12345678901234567890"]]);
    expect(csv.split("\r\n")[1]).toBe("-5,-12,-0.5,-12345678901234567890");
    expect(
      writeCsv(["n"], [["-5 apples"], ["-"], ["+3e-2"]])
        .split("\r\n")
        .slice(1),
    ).toEqual([`"'-5 apples"`, `"'-"`, "+3e-2"]);
  });

  it("writes empty cells for null, ISO text for dates, JSON for objects, and quotes by RFC 4180", () => {
    const csv = writeCsv(["a", "b", "c", "d"], [[null, new Date("2024-01-02T03:04:05Z"), { k: "v" }, 'say "hi", bye']]);
    expect(csv.split("\r\n")[1]).toBe(`,2024-01-02T03:04:05.000Z,"{""k"":""v""}","say ""hi"", bye"`);
  });
});
