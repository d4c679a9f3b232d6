import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SemanticQuery } from "../../../schema/semantic-query";
import type { PeriodComparison } from "../../../schema/dashboard";
import { comparisonsOf, queryOf, readQuestion, viewerIndexes } from "../../ai/builtin";
import { prepareQueryTestData, type QueryTestData } from "../query/query-test-data";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { policyViews } from "./service";
import { readNdjson, textOfLines, type Line } from "./chat-test-support";
import { createShopDeployment, embedSession } from "../../testing/shop-deployment";
import { FIGURES, HEADINGS, QUESTIONS, REFUSALS, TRANSLATED } from "./question-table";

/** Rows as plain figures: numbers to the cent, times as their day. */
const asFigures = (rows: Record<string, unknown>[], keys: string[]) =>
  rows.map((r) =>
    Object.fromEntries(
      keys.map((k) => {
        const v = r[k];
        return [
          k,
          typeof v === "string" && /^\d{4}-\d{2}-\d{2}/.test(v)
            ? v.slice(0, 10)
            : typeof v === "string" && !/^[\d.-]+$/.test(v)
              ? v
              : Math.round(Number(v) * 100) / 100,
        ];
      }),
    ),
  );

let data: QueryTestData;
/** FIGURES' SQL results per tenant, read before the platform opens the file. */
const expectedFigures = new Map<string, Record<string, unknown>[]>();
beforeAll(async () => {
  data = await prepareQueryTestData({ rows: 3000, postgres: false });
  const instance = await DuckDBInstance.create(data.duckdbPath, { access_mode: "READ_ONLY" });
  const conn = await instance.connect();
  for (const [question, sql] of FIGURES) {
    for (const tenant of ["acme-corp", "globex-inc"] as const) {
      expectedFigures.set(`${tenant} ${question}`, (await conn.runAndReadAll(sql(tenant))).getRowObjectsJS() as Record<string, unknown>[]);
    }
  }
  conn.closeSync();
  instance.closeSync();
}, 60_000);
afterAll(() => data?.cleanup());

describe.each(storageKinds)("chat API and the builtin engine (%s storage)", (storage) => {
  let t: TestPlatform;
  let deploymentId: number;
  const tokens: Record<string, string> = {};

  const embedToken = async (tenant: string, externalId: string, settings?: Record<string, unknown>) =>
    (await embedSession(t, deploymentId, { externalId, embedTenantName: tenant, ...(settings ? { settings } : {}) })).token;

  const base = () => `/api/v1/deployments/${deploymentId}/chat/threads`;

  async function newThread(token: string) {
    const res = await t.api("POST", base(), {}, token);
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  async function ask(token: string, threadId: string, content: string, messageId?: string) {
    const res = await t.api("POST", `${base()}/${threadId}/messages`, { content, ...(messageId ? { messageId } : {}) }, token);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    return readNdjson(res);
  }

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    deploymentId = await createShopDeployment(t, data.duckdbPath);
    tokens.acme = await embedToken("acme-corp", "ann");
    tokens.acme2 = await embedToken("acme-corp", "bob");
    tokens.globex = await embedToken("globex-inc", "ann");
    tokens.noAi = await embedToken("acme-corp", "carl", { allowAi: false });
  }, 60_000);
  afterAll(() => t?.close());

  // The question tables run on one storage: their answers come from the DuckDB data set and the
  // engine, and the platform's storage only keeps the threads, which the thread tests below check
  // on every storage. Run on both, each question was the same test twice (docs/benchmarks.md).
  if (storage === "pglite") {
    describe("the builtin engine's reading of questions", () => {
      it.each(QUESTIONS)("%s", async (question, expected, comparisons) => {
        const engine = await t.deps.queryEngines.get(deploymentId);
        const ctx = {
          deploymentId,
          engine,
          securityContext: { embedTenant: null, groups: [], userAttributes: {}, role: "admin" as const, userId: t.adminUserId },
          locale: "en",
          allowAuthoring: false,
          signal: new AbortController().signal,
          queryTimeoutMs: 30_000,
          includeSql: false,
        };
        const { indexes, reference } = await viewerIndexes(ctx);
        const reading = readQuestion(question, indexes, { locale: "en", reference });
        if (expected === null) expect(reading.ok).toBe(false);
        else {
          expect(reading.ok).toBe(true);
          if (reading.ok) {
            expect(queryOf(reading.understanding)).toEqual(expected);
            expect(comparisonsOf(reading.understanding)).toEqual(comparisons);
          }
        }
      });
    });

    describe("answers through the chat API equal the query API's rows for the same caller", () => {
      it.each(QUESTIONS.filter(([, q]) => q !== null).map(([q]) => q))("%s", async (question) => {
        const threadId = await newThread(tokens.acme!);
        const lines = await ask(tokens.acme!, threadId, question);
        expect(lines[0]).toMatchObject({ __cutoff__: true, chatId: threadId });
        const last = lines[lines.length - 1]!;
        expect(last.__state__, JSON.stringify(last)).toBeDefined();
        const queryPart = lines.find((l) => l.type === "query") as Line & { query: SemanticQuery; periodComparisons?: PeriodComparison[] };
        const tablePart = lines.find((l) => l.type === "table") as Line & { rows: unknown[] };
        expect(queryPart && tablePart, JSON.stringify(lines).slice(0, 1500)).toBeTruthy();
        const body = { query: queryPart.query, ...(queryPart.periodComparisons ? { periodComparisons: queryPart.periodComparisons } : {}) };
        const direct = await t.api("POST", `/api/v1/deployments/${deploymentId}/query`, body, tokens.acme);
        expect(direct.status).toBe(200);
        const rows = ((await direct.json()) as { data: unknown[] }).data;
        expect(tablePart.rows).toEqual(rows.slice(0, 500));
        // The embed viewer's rows are only its tenant's: the answer never carries SQL for an embed viewer.
        expect(queryPart.sql).toBeUndefined();
        const text = textOfLines(lines);
        expect(text.length).toBeGreaterThan(20);
      });
    });

    describe("answers' figures equal SQL written by hand, each tenant its own", () => {
      it.each(FIGURES.map(([q]) => q))("%s", async (question) => {
        const answers: Record<string, unknown>[][] = [];
        for (const [tenant, token] of [
          ["acme-corp", tokens.acme!],
          ["globex-inc", tokens.globex!],
        ] as const) {
          const lines = await ask(token, await newThread(token), question);
          const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, unknown>[] };
          expect(table, JSON.stringify(lines).slice(0, 1500)).toBeTruthy();
          const expected = expectedFigures.get(`${tenant} ${question}`)!;
          expect(expected.length).toBeGreaterThan(0);
          const keys = Object.keys(expected[0]!);
          expect(asFigures(table.rows, keys)).toEqual(asFigures(expected, keys));
          answers.push(asFigures(table.rows, keys));
        }
        // Tenant isolation: globex's figures are not acme's.
        expect(answers[1]).not.toEqual(answers[0]);
      });

      it.each([
        ["busiest month in 2024", "The top month by Orders was **November 2024**, with **123**."],
        ["¿Cuál fue el mes con más pedidos en 2024?", "El mes con más Pedidos fue **noviembre de 2024**, con **123**."],
      ])("%s: answered as a sentence", async (question, sentence) => {
        const lines = await ask(tokens.acme!, await newThread(tokens.acme!), question);
        const text = textOfLines(lines);
        expect(text).toContain(sentence);
      });

      it("leaves the cancelled orders out: the figure is not the one with them", async () => {
        const lines = await ask(tokens.acme!, await newThread(tokens.acme!), "revenue in 2024 excluding cancelled orders");
        const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, unknown>[] };
        const all = await t.api(
          "POST",
          `/api/v1/deployments/${deploymentId}/query`,
          { query: { measures: ["sales.revenue"], timeDimensions: [{ dimension: "sales.created_at", dateRange: ["2024-01-01", "2024-12-31"] }] } },
          tokens.acme,
        );
        const withCancelled = Number(((await all.json()) as { data: Record<string, unknown>[] }).data[0]!["sales.revenue"]);
        expect(Number(table.rows[0]!["sales.revenue"])).toBeLessThan(withCancelled);
      });
    });

    describe("German and Spanish answers name members, parts of time and values in the question's language", () => {
      it.each(TRANSLATED)("%s", async (question, said, notSaid) => {
        // The surface is English (no locale): the dictionary is the question's language's.
        const lines = await ask(tokens.acme!, await newThread(tokens.acme!), question);
        const text = textOfLines(lines);
        for (const s of said) {
          if (typeof s === "string") expect(text).toContain(s);
          else expect(text).toMatch(s);
        }
        for (const s of notSaid) expect(text).not.toContain(s);
      });

      it.each(HEADINGS)("%s: the table heads %s “%s”", async (question, key, heading) => {
        const lines = await ask(tokens.acme!, await newThread(tokens.acme!), question);
        const table = lines.find((l) => l.type === "table") as Line & { columns: { key: string; title: string }[] };
        expect(table.columns.find((c) => c.key === key)?.title).toBe(heading);
      });

      it("names members in English for an English question on a German surface, and in German for a German one", async () => {
        const german = await embedToken("acme-corp", "dora", { locale: "de-DE" });
        const textOf = async (question: string) => textOfLines(await ask(german, await newThread(german), question));
        const en = await textOf("revenue by country");
        expect(en).toContain("**Revenue**, by Country.");
        expect(en).not.toContain("Umsatz");
        const de = await textOf("Umsatz nach Land");
        expect(de).toContain("**Umsatz**, nach Land.");
      });

      it("reads members by their titles in the viewer's locale, and names them so in its follow-ups", async () => {
        const spanish = await embedToken("acme-corp", "eva", { locale: "es-ES" });
        // "Nombre del producto" is the dictionary's title of sales.products_name, no word the engine knows of its own.
        const lines = await ask(spanish, await newThread(spanish), "ingresos por nombre del producto");
        const query = lines.find((l) => l.type === "query") as Line & { query: SemanticQuery };
        expect(query.query.dimensions).toEqual(["sales.products_name"]);
        const { suggestions } = lines.find((l) => l.type === "suggestions") as Line & { suggestions: string[] };
        expect(suggestions.join(" | ")).toContain("Ingresos");
        expect(suggestions.join(" | ")).not.toContain("Revenue");
        // A follow-up is read back as it is offered.
        const again = await ask(spanish, await newThread(spanish), suggestions[0]!);
        expect(again.some((l) => l.type === "query")).toBe(true);
      });
    });

    describe("no figures for what the data does not hold, nor for changing it", () => {
      it.each(REFUSALS)("%s", async (question, said) => {
        const lines = await ask(tokens.acme!, await newThread(tokens.acme!), question);
        const text = textOfLines(lines);
        expect(text).toContain(said);
        expect(lines.some((l) => l.type === "table" || l.type === "query" || l.type === "chart")).toBe(false);
        expect(lines.some((l) => l.type === "tool_call" && l.name === "run_query")).toBe(false);
        const suggestions = lines.find((l) => l.type === "suggestions") as Line & { suggestions: string[] };
        expect(suggestions.suggestions.length).toBeGreaterThan(0);
      });
    });
  }

  it.each([
    ["top 3 countries by revenue growth", "desc", "the 3 with the biggest change"],
    ["bottom 2 countries by revenue growth", "asc", "the 2 with the smallest change"],
    ["Top 3 Länder nach Umsatzwachstum", "desc", "die 3 mit der größten Veränderung"],
  ] as const)("%s: ranks the rows by their change and keeps that many", async (question, direction, said) => {
    const threadId = await newThread(tokens.acme!);
    const lines = await ask(tokens.acme!, threadId, question);
    const queryPart = lines.find((l) => l.type === "query") as Line & { query: SemanticQuery; periodComparisons: PeriodComparison[] };
    const tablePart = lines.find((l) => l.type === "table") as Line & { rows: Record<string, unknown>[] };
    expect(queryPart.query.limit).toBeUndefined();
    const direct = await t.api(
      "POST",
      `/api/v1/deployments/${deploymentId}/query`,
      { query: queryPart.query, periodComparisons: queryPart.periodComparisons },
      tokens.acme,
    );
    const rows = ((await direct.json()) as { data: Record<string, unknown>[] }).data;
    const pct = queryPart.periodComparisons[0]!.outputs![2]!;
    const limit = Number(/\d+/.exec(question)![0]);
    expect(rows.length).toBeGreaterThan(limit);
    const finite = rows.filter((r) => r[pct] !== null && Number.isFinite(Number(r[pct])));
    const expected = [...finite].sort((a, b) => (direction === "asc" ? Number(a[pct]) - Number(b[pct]) : Number(b[pct]) - Number(a[pct]))).slice(0, limit);
    expect(tablePart.rows).toEqual(expected);
    const text = textOfLines(lines);
    expect(text).toContain(said);
  });

  it.each([
    ["orders by day of week", /\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/, "by day of week"],
    ["Umsatz nach Wochentag", /\b(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag)\b/, "nach Wochentag"],
    ["pedidos por día de la semana", /\b(lunes|martes|miércoles|jueves|viernes|sábado|domingo)\b/, "por día de la semana"],
  ] as const)("%s: names the weekdays in the question's language, in calendar order", async (question, weekday, grouped) => {
    const threadId = await newThread(tokens.acme!);
    const lines = await ask(tokens.acme!, threadId, question);
    const text = textOfLines(lines);
    expect(text).toMatch(weekday);
    expect(text).toContain(grouped);
    const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, unknown>[]; columns: { key: string; timePart?: string }[] };
    expect(table.rows.map((r) => r["sales.created_at.dayOfWeek"])).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(table.columns.find((c) => c.key === "sales.created_at.dayOfWeek")?.timePart).toBe("dayOfWeek");
    // The chart: a bar per weekday, named in the question's language, Monday first.
    const chart = lines.find((l) => l.type === "chart") as Line & { spec: { encoding: { x: { type: string; sort: string[] } } } };
    expect(chart.spec.encoding.x.type).toBe("ordinal");
    expect(chart.spec.encoding.x.sort).toHaveLength(7);
    expect(chart.spec.encoding.x.sort[0]).toMatch(weekday);
  });

  it("answers a question outside the model with 'could not answer' and suggestions, never numbers", async () => {
    const threadId = await newThread(tokens.acme!);
    const lines = await ask(tokens.acme!, threadId, "who is the CEO of the company");
    const text = textOfLines(lines);
    expect(text).toMatch(/could not answer/);
    expect(lines.some((l) => l.type === "table" || l.type === "query")).toBe(false);
    const suggestions = lines.find((l) => l.type === "suggestions") as Line & { suggestions: string[] };
    expect(suggestions.suggestions.length).toBeGreaterThan(0);
    // Each suggestion is itself a question the engine answers.
    const again = await ask(tokens.acme!, threadId, suggestions.suggestions[0]!);
    expect(again.some((l) => l.type === "table")).toBe(true);
  });

  it("answers in the question's language", async () => {
    const threadId = await newThread(tokens.acme!);
    const de = await ask(tokens.acme!, threadId, "Umsatz nach Land im letzten Quartal");
    expect(textOfLines(de)).toMatch(/So habe ich die Frage verstanden/);
    const es = await ask(tokens.acme!, threadId, "pedidos por estado");
    expect(textOfLines(es)).toMatch(/Así entendí la pregunta/);
  });

  it("keeps threads per user and tenant, with history, rejoin by messageId and deletion", async () => {
    const threadId = await newThread(tokens.acme!);
    const first = await ask(tokens.acme!, threadId, "revenue by category", "msg-1");
    const state = first[first.length - 1]!.__state__ as { id: string; status: string; parts: unknown[] };
    expect(state).toMatchObject({ id: "msg-1", status: "completed" });
    // Posting the same messageId again returns the finished answer, not a second one.
    const again = await ask(tokens.acme!, threadId, "revenue by category", "msg-1");
    expect(again).toHaveLength(2);
    expect(again[1]!.__state__).toEqual(state);

    const thread = await (await t.api("GET", `${base()}/${threadId}`, undefined, tokens.acme)).json();
    expect(thread.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    expect(thread.messages[1].parts.some((p: { type: string }) => p.type === "chart")).toBe(true);
    expect(thread.title).toBe("revenue by category");

    // Another user of the same tenant, and the same external id in another tenant, see nothing.
    for (const other of [tokens.acme2!, tokens.globex!]) {
      expect((await t.api("GET", `${base()}/${threadId}`, undefined, other)).status).toBe(404);
      expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "orders" }, other)).status).toBe(404);
      const list = await (await t.api("GET", base(), undefined, other)).json();
      expect(list.data.some((x: { id: string }) => x.id === threadId)).toBe(false);
    }
    const mine = await (await t.api("GET", base(), undefined, tokens.acme)).json();
    expect(mine.data.some((x: { id: string }) => x.id === threadId)).toBe(true);

    expect((await t.api("DELETE", `${base()}/${threadId}`, undefined, tokens.acme)).status).toBe(204);
    expect((await t.api("GET", `${base()}/${threadId}`, undefined, tokens.acme)).status).toBe(404);
  });

  it("rejoins a running answer by messageId", async () => {
    const threadId = await newThread(tokens.acme!);
    const [a, b] = await Promise.all([
      ask(tokens.acme!, threadId, "orders by status over time", "same"),
      ask(tokens.acme!, threadId, "orders by status over time", "same"),
    ]);
    expect(a[a.length - 1]!.__state__).toBeDefined();
    expect(b[b.length - 1]!.__state__).toEqual(a[a.length - 1]!.__state__);
    const thread = await (await t.api("GET", `${base()}/${threadId}`, undefined, tokens.acme)).json();
    expect(thread.messages.filter((m: { role: string }) => m.role === "assistant")).toHaveLength(1);
  });

  it("refuses AI on the server when the session says allowAi: false", async () => {
    const res = await t.api("POST", base(), {}, tokens.noAi);
    expect(res.status).toBe(403);
    expect((await t.api("GET", base(), undefined, tokens.noAi)).status).toBe(403);
    const threadId = await newThread(tokens.acme!);
    expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "orders" }, tokens.noAi)).status).toBe(403);
  });

  it("gives a platform user the SQL of each query, and all tenants' rows", async () => {
    const threadId = await newThread(t.adminToken);
    const lines = await ask(t.adminToken, threadId, "how many orders");
    const queryPart = lines.find((l) => l.type === "query") as Line & { sql?: string };
    expect(queryPart.sql).toMatch(/SELECT/i);
    const table = lines.find((l) => l.type === "table") as Line & { rows: Record<string, number>[] };
    const acme = await ask(tokens.acme!, await newThread(tokens.acme!), "how many orders");
    const acmeTable = acme.find((l) => l.type === "table") as Line & { rows: Record<string, number>[] };
    expect(table.rows[0]!["sales.count"]).toBeGreaterThan(acmeTable.rows[0]!["sales.count"]!);
  });

  it("validates input at the edge", async () => {
    const threadId = await newThread(tokens.acme!);
    expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "" }, tokens.acme)).status).toBe(400);
    expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "x", messageId: "../../etc" }, tokens.acme)).status).toBe(400);
    expect((await t.api("POST", `${base()}/${threadId}/messages`, { content: "x", extra: 1 }, tokens.acme)).status).toBe(400);
    expect((await t.api("GET", `${base()}/not%20an%20id`, undefined, tokens.acme)).status).toBe(400);
  });
});

describe("chatThreadPolicies", () => {
  const views = ["sales", "customer_base"];
  it("allows everything without rules, and deny wins over allow", () => {
    expect(policyViews([], "create", views)).toEqual(views);
    expect(policyViews([{ actions: ["create"], effect: "deny", resourceType: "chatThread", resources: ["sales"] }], "create", views)).toEqual([
      "customer_base",
    ]);
    expect(
      policyViews(
        [
          { actions: ["create"], effect: "allow", resourceType: "chatThread", resources: ["*"] },
          { actions: ["create", "read"], effect: "deny", resourceType: "chatThread", resources: ["customer_base"] },
        ],
        "create",
        views,
      ),
    ).toEqual(["sales"]);
    expect(policyViews([{ actions: ["create"], effect: "allow", resourceType: "chatThread", resources: ["sales"] }], "create", views)).toEqual(["sales"]);
    expect(policyViews([{ actions: ["delete"], effect: "deny", resourceType: "chatThread", resources: ["*"] }], "create", views)).toEqual(views);
  });
});
