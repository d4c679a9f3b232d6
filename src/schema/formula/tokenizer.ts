import { FormulaError } from "./formula-error";

/** Words with a meaning of their own; any case. A member with such a name is written qualified (`sales.in`). */
export const KEYWORDS = ["and", "or", "not", "is", "null", "in", "where", "true", "false"] as const;
export type Keyword = (typeof KEYWORDS)[number];

export type Punctuation = "(" | ")" | "," | "." | "+" | "-" | "*" | "/" | "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=";

export type Token =
  | { type: "number"; value: number; start: number; end: number }
  | { type: "string"; value: string; start: number; end: number }
  | { type: "identifier"; name: string; start: number; end: number }
  | { type: "keyword"; keyword: Keyword; text: string; start: number; end: number }
  | { type: "punctuation"; punctuation: Punctuation; start: number; end: number }
  | { type: "end"; start: number; end: number };

const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/y;
/** Not sticky: a sticky pattern's `test` starts at its last `lastIndex`, whatever the text. */
const NAME_START = /^[A-Za-z_]/;
const TWO_CHARACTER = new Set<Punctuation>(["!=", "<>", "<=", ">="]);
const ONE_CHARACTER = new Set<Punctuation>(["(", ")", ",", ".", "+", "-", "*", "/", "=", "<", ">"]);
const ESCAPES: Record<string, string> = { "'": "'", "\\": "\\", n: "\n", t: "\t" };

/** Splits a formula into tokens; throws `FormulaError` at the first character that fits none. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (c === "'") {
      const token = readString(text, i);
      tokens.push(token);
      i = token.end;
      continue;
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (number) {
      const value = Number(number[0]);
      // As for filter values: beyond 2^53 a number is no longer exact, and the engines' integers end near there.
      if (!Number.isFinite(value) || value > Number.MAX_SAFE_INTEGER) {
        throw new FormulaError("syntax", i, `number ${number[0]} is out of range: numbers lie within ±${Number.MAX_SAFE_INTEGER}`, {
          code: "numberOutOfRange",
          params: { number: number[0], max: Number.MAX_SAFE_INTEGER },
        });
      }
      const end = i + number[0].length;
      if (NAME_START.test(text[end] ?? "")) {
        throw new FormulaError("syntax", end, "a number runs into a name; put an operator between them", { code: "numberBeforeName", params: {} });
      }
      tokens.push({ type: "number", value, start: i, end });
      i = end;
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const word = IDENTIFIER.exec(text);
    if (word) {
      const end = i + word[0].length;
      const lower = word[0].toLowerCase();
      if ((KEYWORDS as readonly string[]).includes(lower)) tokens.push({ type: "keyword", keyword: lower as Keyword, text: word[0], start: i, end });
      else tokens.push({ type: "identifier", name: word[0], start: i, end });
      i = end;
      continue;
    }
    const two = text.slice(i, i + 2) as Punctuation;
    if (TWO_CHARACTER.has(two)) {
      tokens.push({ type: "punctuation", punctuation: two, start: i, end: i + 2 });
      i += 2;
      continue;
    }
    if (ONE_CHARACTER.has(c as Punctuation)) {
      tokens.push({ type: "punctuation", punctuation: c as Punctuation, start: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === '"') {
      throw new FormulaError("syntax", i, "text is written in single quotes ('returned'); member names are not quoted", {
        code: "doubleQuotedText",
        params: {},
      });
    }
    throw new FormulaError("syntax", i, `unexpected character ${JSON.stringify(c)}`, { code: "unexpectedCharacter", params: { character: c } });
  }
  tokens.push({ type: "end", start: text.length, end: text.length });
  return tokens;
}

/** `'…'` with `\'`, `''`, `\\`, `\n` and `\t`; control characters must be escaped. */
function readString(text: string, start: number): Token {
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'") {
      if (text[i + 1] === "'") {
        value += "'";
        i += 2;
        continue;
      }
      return { type: "string", value, start, end: i + 1 };
    }
    if (c === "\\") {
      const next = text[i + 1];
      const escaped = next !== undefined && Object.hasOwn(ESCAPES, next) ? ESCAPES[next] : undefined;
      if (escaped === undefined) {
        throw new FormulaError("syntax", i, "unknown escape in text: use \\', '', \\\\, \\n or \\t", { code: "unknownEscape", params: {} });
      }
      value += escaped;
      i += 2;
      continue;
    }
    if (c.charCodeAt(0) < 0x20 || c === "\u007f") {
      if (c === "\n") throw new FormulaError("syntax", i, "text ends at the end of the line: close it with '", { code: "textEndsAtLineEnd", params: {} });
      throw new FormulaError("syntax", i, "a control character in text: write \\n or \\t", { code: "controlCharacterInText", params: {} });
    }
    value += c;
    i++;
  }
  throw new FormulaError("syntax", start, "text is not closed: end it with '", { code: "unclosedText", params: {} });
}
