import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DuckDbDialect } from "../compiler/duckdb-dialect";
import { MySqlDialect } from "../compiler/mysql-dialect";
import { PostgresDialect } from "../compiler/postgres-dialect";
import { FormulaError } from "../../../schema/formula/formula-error";
import { emitForTest, salesScope } from "./test-scope";

/**
 * No formula text ever reaches SQL unparsed: for any input, either the formula is refused with a
 * position inside it, or every token of the SQL is a placeholder, a quoted identifier of a known
 * member, or a word of the emitter's own fixed vocabulary (so no text, number, comment, quote or
 * name of the input is in the SQL, other than as a bound parameter).
 */
const VOCABULARY = new Set(
  [
    "CAST AS DOUBLE PRECISION VARCHAR BOOLEAN NUMERIC INTEGER CHAR SIGNED AND OR NOT IS NULL IN CASE WHEN THEN END DISTINCT NULLIF",
    "abs ceil floor round coalesce nullif greatest least lower upper sum avg min max count M F",
    "( ) , . + - * / = <> < <= > >= | 0",
  ]
    .join(" ")
    .split(" "),
);
const KNOWN_IDENTIFIERS = new Set(["sales", ...[...salesScope.names()].filter((n) => !n.includes("."))]);
// Quoted identifiers ("x" or MySQL's `x`), placeholders ($1 or MySQL's ?), words and operators.
const SQL_TOKEN = /\s*(?:("(?:[^"]|"")*"|`(?:[^`]|``)*`)|(\$[0-9]+|\?)|([A-Za-z_]+|[0-9]+|<>|<=|>=|[(),.+\-*/=<>|]))/y;

function foreignTokens(sql: string): string[] {
  const foreign: string[] = [];
  let i = 0;
  while (i < sql.length) {
    SQL_TOKEN.lastIndex = i;
    const m = SQL_TOKEN.exec(sql);
    if (!m) return [...foreign, sql.slice(i)];
    i = SQL_TOKEN.lastIndex;
    if (m[1] !== undefined) {
      if (!KNOWN_IDENTIFIERS.has(m[1].slice(1, -1))) foreign.push(m[1]);
    } else if (m[3] !== undefined && !VOCABULARY.has(m[3])) foreign.push(m[3]);
  }
  return foreign;
}

// Pieces of input that would be dangerous in SQL, inside text literals, around and between tokens.
const evil = fc.constantFrom("'; DROP TABLE orders; --", "$1", "\\", '"', "/* x */", "' OR 1=1 --", "%_", "\u0000", "é", "{CUBE}", "0x1");
const textValue = fc.oneof(fc.string({ maxLength: 10 }), evil);
const text = textValue.map((v) => `'${v.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`);
const number = fc.oneof(fc.nat({ max: 100000 }).map(String), fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e9 }).map(String));

// Well-typed formulas (most are accepted), so the property reaches the emitter.
const { num, str, bool, agg } = fc.letrec((tie) => ({
  num: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("amount", "sales.discount"),
    number,
    fc.tuple(tie("num"), fc.constantFrom("+", "-", "*", "/"), tie("num")).map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie("num").map((a) => `-${a}`),
    fc.tuple(fc.constantFrom("abs", "floor", "ceil", "round"), tie("num")).map(([f, a]) => `${f}(${a})`),
    fc.tuple(tie("num"), fc.nat({ max: 10 })).map(([a, d]) => `round(${a}, ${d})`),
    fc.tuple(tie("num"), tie("num")).map(([a, b]) => `coalesce(${a}, ${b})`),
  ),
  str: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("status", "country"),
    text,
    tie("str").map((a) => `lower(${a})`),
    fc.tuple(tie("str"), tie("str")).map(([a, b]) => `nullif(${a}, ${b})`),
  ),
  bool: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("is_big"),
    fc.tuple(tie("num"), fc.constantFrom("<", "<=", ">", ">=", "=", "!="), tie("num")).map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(tie("str"), tie("str")).map(([a, b]) => `${a} = ${b}`),
    fc.tuple(tie("str"), fc.array(text, { minLength: 1, maxLength: 3 })).map(([a, l]) => `${a} not in (${l.join(", ")})`),
    tie("bool").map((a) => `not (${a})`),
    fc.tuple(tie("bool"), fc.constantFrom("and", "or"), tie("bool")).map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie("str").map((a) => `${a} is not null`),
  ),
  agg: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("revenue", "count", "sales.cost"),
    fc.tuple(tie("num"), tie("bool")).map(([a, b]) => `sum(${a} where ${b})`),
    tie("bool").map((b) => `count(where ${b})`),
    tie("str").map((a) => `count_distinct(${a})`),
    fc.tuple(tie("agg"), fc.constantFrom("+", "-", "*", "/"), tie("agg")).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(tie("agg"), number).map(([a, n]) => `${a} * ${n}`),
  ),
}));
const wellTyped = fc.oneof(agg, num, str, bool);
const junk = fc.constantFrom(
  ";",
  "--",
  "/*",
  '"',
  "`",
  "$1",
  "\\",
  "'",
  "::",
  "||",
  "%",
  "?",
  "DROP TABLE orders",
  "\u0000",
  "\n",
  "1e",
  "in",
  "where",
  "(",
  ")",
  ",",
);
// A well-typed formula with something spliced in: mostly refused, at a position.
const spliced = fc.tuple(wellTyped, fc.nat(), junk).map(([f, at, j]) => f.slice(0, at % (f.length + 1)) + j + f.slice(at % (f.length + 1)));

describe("formula SQL (property)", () => {
  for (const dialect of [new DuckDbDialect(), new PostgresDialect(), new MySqlDialect()]) {
    it(`lets no input text into the SQL (${dialect.name})`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(
          fc.oneof({ weight: 4, arbitrary: wellTyped }, spliced, fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 })),
          (input) => {
            let out: { sql: string; params: (string | number | boolean)[] };
            try {
              // As the statement is bound: MySQL's numbered markers become ?s.
              out = dialect.bindPositional(emitForTest(input, dialect));
            } catch (e) {
              expect(e).toBeInstanceOf(FormulaError);
              const position = (e as FormulaError).position;
              expect(position).toBeGreaterThanOrEqual(0);
              expect(position).toBeLessThanOrEqual(input.length);
              return;
            }
            accepted++;
            expect(foreignTokens(out.sql)).toEqual([]);
            if (dialect.name === "mysql") {
              // One ? per bound value, in order.
              expect(out.sql.split("?").length - 1).toBe(out.params.length);
            } else {
              // Placeholders are numbered 1…n, one per bound literal.
              const placeholders = [...out.sql.matchAll(/\$([0-9]+)/g)].map((m) => Number(m[1]));
              expect(new Set(placeholders)).toEqual(new Set(out.params.map((_, i) => i + 1)));
            }
          },
        ),
        { numRuns: 4000, seed: 20261127 },
      );
      // The generator reaches the emitter often enough for the property to mean something.
      expect(accepted).toBeGreaterThan(1000);
    });
  }

  it("checks the checker's own vocabulary test: an input word in the SQL is caught", () => {
    expect(foreignTokens('("sales"."amount" + CAST($1 AS DOUBLE))')).toEqual([]);
    expect(foreignTokens('("sales"."amount" + 1.5)')).toEqual(["1", "5"]);
    expect(foreignTokens('("sales"."amount" = \'x\')')).toEqual([" 'x')"]);
    expect(foreignTokens('"orders"."secret"')).toEqual(['"orders"', '"secret"']);
    expect(foreignTokens("(`sales`.`amount` + CAST(? AS DOUBLE))")).toEqual([]);
    expect(foreignTokens("`orders`.`secret`")).toEqual(["`orders`", "`secret`"]);
  });
});
