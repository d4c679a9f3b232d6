import { describe, expect, it } from "vitest";
import { FORMULA_PROBLEM_CODES, type FormulaProblem, type FormulaProblemCode } from "../../../schema/formula/formula-error";
import { checkFormulaText } from "./report-formula";
import { FORMULA_PROBLEM_MESSAGES, formulaProblemText } from "./report-formula-messages";
import { SALES } from "./report-formula-fixtures";

/** A formula the checker refuses with each code. */
const REFUSED: Record<FormulaProblemCode, string> = {
  numberOutOfRange: "1e400",
  numberBeforeName: "2count",
  doubleQuotedText: 'status = "x"',
  unexpectedCharacter: "revenue # 2",
  unknownEscape: "status = 'a\\q'",
  textEndsAtLineEnd: "status = 'a\nb'",
  controlCharacterInText: "status = 'a\tb'",
  unclosedText: "status = 'a",
  tooLong: "1+".repeat(1001) + "1",
  empty: "   ",
  operatorExpected: "revenue 2",
  chainedComparison: "amount < 1 < 2",
  nullNotValue: "amount = null",
  valueExpected: "revenue + )",
  endsEarly: "revenue / ",
  memberNameAfterDot: "sales.1",
  tooDeep: "(".repeat(40) + "amount" + ")".repeat(40),
  tooManyParts: "amount" + "+1".repeat(600),
  nullExpectedAfterIs: "status is 1",
  parenthesisExpectedAfterIn: "status in 'a'",
  inListNotClosed: "status in ('a' 'b')",
  parenthesisNotClosed: "(revenue + 1",
  callNotClosed: "sum(amount",
  noMembers: "1 + 2",
  timeResult: "created_at",
  aggregateNotNumber: "revenue > 1",
  compareTypes: "amount = 'a'",
  orderBooleans: "(amount > 1) < (amount > 2)",
  inListLiterals: "status in (amount)",
  inListTypes: "status in (1)",
  whereInScalar: "abs(amount where amount > 1)",
  measureTakesNoArguments: "revenue(1)",
  unknownFunction: "sums(amount)",
  missingFilteredMeasure: "sum(where amount > 1)",
  dimensionFiltered: "amount(where amount > 1)",
  whereNamesMeasures: "count(where revenue > 1)",
  oneArgument: "sum(amount, 1)",
  countArguments: "count()",
  nestedAggregates: "sum(sum(amount))",
  argumentCount: "nullif(amount)",
  argumentRange: "round()",
  functionTypes: "abs(status)",
  functionMixesTypes: "coalesce(amount, status)",
  roundDigits: "round(amount, 1.5)",
  unknownMember: "revenue / custmer_count",
  negateNeedsNumber: "-status",
  notNeedsBoolean: "not amount",
  arithmeticNeedsNumber: "revenue + status",
  logicalNeedsBoolean: "amount and true",
  aggregateNeedsNumber: "sum(status)",
  whereNeedsBoolean: "count(where amount)",
  rowBesideAggregate: "revenue / amount",
};

const refusal = (formula: string) => {
  const check = checkFormulaText(formula, SALES);
  if (check.ok) throw new Error(`checks: ${formula}`);
  return check;
};

/** The `{…}` a template names. */
const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the formula checker's problems in the app's languages", () => {
  it.each(["en", "de", "es"])("has a sentence in %s for every code the checker gives", (lang) => {
    const catalog = FORMULA_PROBLEM_MESSAGES[lang]!;
    const missing = FORMULA_PROBLEM_CODES.filter((code) => !catalog.problems[code]?.trim());
    expect(missing).toEqual([]);
    // Each sentence puts in what the English one does (a German or Spanish one may not drop a name).
    for (const code of FORMULA_PROBLEM_CODES)
      expect([code, placeholders(catalog.problems[code]!)]).toEqual([code, placeholders(FORMULA_PROBLEM_MESSAGES.en!.problems[code]!)]);
  });

  it.each(FORMULA_PROBLEM_CODES.map((code) => [code, REFUSED[code]] as const))(
    "tells %s in English, German and Spanish, with its parameters in place",
    (code, formula) => {
      const check = refusal(formula);
      expect(check.code).toBe(code);
      const texts = ["en-US", "de-DE", "es-ES"].map((locale) => formulaProblemText(locale, check, check.detail));
      for (const t of texts) expect(t.text).not.toMatch(/\{\w+\}|undefined|NaN/);
      expect(texts.map((t) => t.lang)).toEqual(["en", "de", "es"]);
      expect(new Set(texts.map((t) => t.text)).size).toBe(3);
    },
  );

  it("puts member names, suggestions, operators, types and tokens into the sentence", () => {
    const text = (formula: string, locale: string) => {
      const check = refusal(formula);
      return formulaProblemText(locale, check, check.detail).text;
    };
    expect(text("revenue / custmer_count", "de-DE")).toBe("Unbekanntes Element „custmer_count“; meinten Sie „customer_count“?");
    expect(text("revenue / custmer_count", "es-ES")).toBe("Miembro desconocido «custmer_count»; ¿quiso decir «customer_count»?");
    // Mexico's Spanish says "tú".
    expect(text("revenue / custmer_count", "es-MX")).toBe("Miembro desconocido «custmer_count»; ¿querías decir «customer_count»?");
    expect(text("amount = 'a'", "de-DE")).toBe("„=“ vergleicht einen Wert vom Typ Zahl mit einem Wert vom Typ Text");
    expect(text("amount = 'a'", "es-MX")).toBe("«=» compara un valor de tipo número con uno de tipo texto");
    expect(text("coalesce(created_at > 1)", "de-DE")).toBe("„>“ vergleicht einen Wert vom Typ Zeitpunkt mit einem Wert vom Typ Zahl");
    expect(text("abs(status)", "es-ES")).toBe("abs() admite valores de tipo número");
    expect(text("greatest(status = 'a', true)", "de-AT")).toBe("greatest() nimmt Werte vom Typ Zahl, Text oder Zeitpunkt");
    expect(text("revenue + )", "de-DE")).toBe("Hier steht „)“, erwartet wird aber ein Wert, ein Element oder eine öffnende Klammer „(“");
    expect(text("sum(amount", "es-ES")).toBe("Se esperaba «)» para cerrar sum(, pero se encontró el final de la fórmula");
    expect(text("1+".repeat(1001) + "1", "de-DE")).toBe("Eine Formel hat höchstens 2.000 Zeichen");
  });

  it("reads the checker's English words in a locale without a catalogue, and for a code a catalogue lacks", () => {
    const check = refusal("revenue / custmer_count");
    expect(formulaProblemText("fr-FR", check, check.detail)).toEqual({ text: 'unknown member "custmer_count"; did you mean "customer_count"?', lang: "en" });
    const unknown = { code: "newProblem", params: {} } as unknown as FormulaProblem;
    expect(formulaProblemText("de-DE", unknown, "a problem in English")).toEqual({ text: "a problem in English", lang: "en" });
  });
});
