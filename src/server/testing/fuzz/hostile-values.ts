import fc from "fast-check";

/**
 * JSON text placed verbatim into a request body: what `JSON.stringify` cannot produce (numbers
 * beyond a double, `-0`, nesting thousands of levels deep).
 */
export class RawJson {
  constructor(
    readonly text: string,
    readonly label: string,
  ) {}
}

/**
 * A value drawn at send time from what the platform holds (ids, slugs, member names…), so that
 * generated requests reach past "not found" into the code behind it. `n` picks the entry.
 */
export class PoolRef {
  constructor(
    readonly pool: string,
    readonly n: number,
    /** The value to use when the pool is empty. */
    readonly fallback: unknown,
  ) {}
}

export function deepArrayText(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

export function deepObjectText(depth: number): string {
  return '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

/** Text the database cannot store: NUL anywhere, UTF-16 surrogates without their pair. */
export const POISON_STRINGS = ["\u0000", "a\u0000b", "name\u0000", "\ud800", "x\udc00y", "\udbff", "\ud83d\ude00\ud83d", "\u0000\ud800"];

/** Odd but storable text: empty, blank, control and format characters, injection lookalikes, number lookalikes. */
export const ODD_STRINGS = [
  "",
  " ",
  "\t\n",
  "\u202e\u2066",
  "\ufeff",
  "e\u0301",
  "\u0001\u001f\u007f",
  "%",
  "_",
  "\\",
  "\\%_",
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "${7*7}{{7*7}}",
  "null",
  "NaN",
  " 1",
  "1.0",
  "1e3",
  "0x10",
  "-1",
  "99999999999",
  "{}",
  "system:all",
  "__proto__",
];

/** Numbers beyond what the columns hold, and the edges of what they do. */
export const HOSTILE_NUMBERS = [
  0,
  -1,
  1.5,
  2_147_483_647,
  2_147_483_648,
  -2_147_483_649,
  99_999_999_999,
  // Past 2^53 on purpose: the value a client sends is not the value JSON.parse gives back.
  // eslint-disable-next-line no-loss-of-precision
  9_007_199_254_740_993,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

export const HOSTILE_RAW_NUMBERS = ["1e400", "-1e400", "-0", "123456789012345678901234567890", "1E+2", "0.0000000000000000000000001"];

/** Keys that are dangerous as object keys or refused by the database. */
export const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "a\u0000b", "\ud800", "", "x".repeat(1000), "$where", "a.b", "[0]"];

const longString = fc.constantFrom(256, 1001, 100_000).map((n) => "x".repeat(n));

/** Bad text: mostly what the database refuses, also odd and very long text. */
export const hostileText: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...POISON_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 1, arbitrary: longString },
);

/** Numbers beyond the columns, and number text no double can hold. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_RAW_NUMBERS).map((t) => new RawJson(t, `number ${t}`)) },
);

/** JSON nested deeper than any parser or merge should recurse. */
export const deepValue: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom(65, 1_000, 5_000), fc.boolean())
  .map(([depth, asArray]) => new RawJson(asArray ? deepArrayText(depth) : deepObjectText(depth), `${asArray ? "array" : "object"} nested ${depth} deep`));

/** A value of the wrong type wherever it lands. */
export const wrongType: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(null, true, false, [], {}, [null], ["\u0000"], { "": null }, "1", 1);

/** A key the platform must not store or trip over. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.constantFrom(...POISON_STRINGS));

/** Path segments, raw (already percent-encoded where needed): odd number forms and bad text. */
export const HOSTILE_PATH_SEGMENTS = [
  " 1",
  "%201",
  "1%20",
  "1.0",
  "1e3",
  "0x10",
  "+1",
  "01",
  "-1",
  "0",
  "99999999999",
  "2147483648",
  "1%00",
  "%00",
  "%ED%A0%80",
  "%C0%80",
  "%FF",
  "%",
  "..",
  "%2e%2e",
  "%2F",
  "NaN",
  "Infinity",
  "%D9%A1%D9%A2",
  "1_000",
  "1n",
  "x".repeat(2000),
  "%F0%9F%98%80",
];

const cursor = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");

/** Cursors made up by hand: ids beyond the columns, text the database refuses, the wrong shapes. */
export const HOSTILE_CURSORS = [
  cursor({ id: 99_999_999_999 }),
  cursor({ id: -1 }),
  cursor({ id: 1.5 }),
  cursor({ v: "\u0000", id: 1 }),
  cursor({ v: "a", id: 99_999_999_999 }),
  cursor({ v: 5, id: 1 }),
  cursor({ r: 1e20, id: 1 }),
  cursor({ r: 0, id: 99_999_999_999 }),
  cursor(null),
  cursor([1]),
  cursor(JSON.parse(deepArrayText(500))),
];

/** Raw query-string values (percent-encoded where needed). */
export const HOSTILE_QUERY_VALUES = [...HOSTILE_PATH_SEGMENTS, ...HOSTILE_CURSORS, "a%00b", "%ED%B0%80", "x".repeat(5000), "%5B%5D", ""];

/** Whole bodies that are not the JSON a route expects. */
export const HOSTILE_RAW_BODIES: (string | Uint8Array<ArrayBuffer>)[] = [
  "",
  "{",
  "}",
  "[",
  "nul",
  "null",
  "[]",
  "0",
  '"text"',
  '{"a":1,}',
  "\ufeff{}",
  '{"a":1}{"b":2}',
  "\u0000",
  " ".repeat(10_000),
  deepArrayText(100_000),
  deepObjectText(20_000),
  '{"a":' + "1".repeat(400) + "}",
  new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]),
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0x22, 0x7d]),
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
];

/** Header sets that must never make the server fail (values are valid ByteStrings). */
export const HOSTILE_HEADERS: Record<string, string>[] = [
  { "content-type": "text/plain" },
  { "content-type": "application/json; charset=utf-16" },
  { "content-type": 'application/json; charset="' },
  { "content-type": "application/vnd.svc+json" },
  { "content-type": "APPLICATION/JSON" },
  { "content-type": "application/json, text/plain" },
  { "content-type": "multipart/form-data" },
  { "content-type": "multipart/form-data; boundary=x" },
  { "content-type": "application/x-www-form-urlencoded" },
  { "content-type": "*/*" },
  { "content-type": "" },
  { authorization: "Bearer" },
  { authorization: "Bearer " },
  { authorization: "bearer svc_x" },
  { authorization: "Basic dXNlcjpwYXNz" },
  { authorization: "Bearer " + "a".repeat(10_000) },
  { authorization: "Bearer svc_" + "A".repeat(43) },
  { authorization: "Bearer eyJhbGciOiJub25lIn0.e30." },
  { authorization: "Bearer a.b.c" },
  { authorization: "Bearer \u00e9\u00ff" },
  { cookie: "svc_session=abc" },
  { cookie: "svc_session=%" },
  { cookie: "svc_session=%E0%A4%A" },
  { cookie: "svc_session=" + "a".repeat(5_000) },
  { cookie: 'svc_session="x"; svc_session=y' },
  { cookie: ";;;=;" },
  { "x-csrf-token": "\u00ff".repeat(50) },
  { accept: "text/html" },
  { "accept-encoding": "gzip, br" },
  { "content-encoding": "gzip" },
  { "x-forwarded-for": "not an ip, 999.1.1.1" },
  { "if-none-match": "*" },
  { range: "bytes=0-1" },
];
