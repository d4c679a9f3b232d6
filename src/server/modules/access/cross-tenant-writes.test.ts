import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SemanticQuery } from "../../../schema/semantic-query";
import type { Principal } from "../../context";
import { DomainError } from "../../domain/errors";
import { embedSession } from "../../testing/shop-deployment";
import { createTestPlatform, storageKinds, type TestPlatform } from "../../testing/test-platform";
import { authenticateApiKey } from "../api-keys/service";
import { authoringActor, saveQueryAsReport } from "../chat/save-report";
import { rowsOf } from "./service";

/**
 * The cross-tenant write matrix (docs/decisions.md "Who may write where"): every write that
 * names a container — the folder or workbook something is created in, moved to or added to —
 * needs edit access to that container. Callers × operations × containers: the caller's own
 * container works; another tenant's, another user's, the admin's or another deployment's answers
 * exactly what an id that never existed answers (404 for whoever may write at all), and writes
 * nothing.
 */

type Owner = "acme" | "globex" | "analyst" | "admin" | "otherDeployment";
type Kind = "folder" | "workbook" | "report";

interface Caller {
  name: string;
  /** Whose containers are this caller's own (none for callers who cannot create anything). */
  owns: Owner | null;
  /** Principal kind, for operations open to one kind only. */
  kind: "creator" | "embed viewer" | "platform viewer" | "platform user" | "admin";
}

const CALLERS: Caller[] = [
  { name: "acme-corp embed creator", owns: "acme", kind: "creator" },
  { name: "globex-inc embed creator", owns: "globex", kind: "creator" },
  { name: "acme-corp embed viewer", owns: null, kind: "embed viewer" },
  { name: "globex-inc embed viewer", owns: null, kind: "embed viewer" },
  { name: "platform ai_bi_user", owns: "analyst", kind: "platform user" },
  { name: "platform viewer", owns: null, kind: "platform viewer" },
  { name: "admin API key", owns: "admin", kind: "admin" },
];

/** An id no object has. */
const MISSING = 2_000_000_000;

/** What a caller got: the status and the whole error body (or the success status alone). */
interface Outcome {
  status: number;
  body?: unknown;
}

interface Ctx {
  t: TestPlatform;
  caller: Caller;
  token: string;
  d: (path: string) => string;
  /** A fresh object of the caller's own (or, for callers who cannot create, the admin's). */
  ownWorkbook(): Promise<number>;
  ownFolder(): Promise<number>;
  ownReport(): Promise<string>;
  /** Runs a service operation as the caller, its refusal as an outcome like the API's. */
  asService(run: (principal: Principal) => Promise<unknown>): Promise<Outcome>;
  newPublicId(): string;
  newSlug(): string;
}

interface Op {
  name: string;
  container: Kind;
  /** Which callers may write into their own container here (the rest are refused whatever the id). */
  ownWorks: Caller["kind"][];
  /** Success status with the caller's own container. */
  ok: number;
  /** Status for a missing container, when not 404 (a draft naming an unknown report is a 400 with its path). */
  missing?: number;
  /** Makes what the call acts on, before the call (an own workbook to move, …). */
  subject?(ctx: Ctx, containerId: number): Promise<number | string>;
  /** The caller's own container for the success call, when not the one made for them at the start (an operation that deletes it). */
  ownTarget?(ctx: Ctx): Promise<number>;
  run(ctx: Ctx, containerId: number, subject: never): Promise<Outcome>;
}

const WRITERS: Caller["kind"][] = ["creator", "platform user", "admin"];

async function call(ctx: Ctx, method: string, path: string, body?: unknown): Promise<Outcome> {
  const res = await ctx.t.api(method, ctx.d(path), body, ctx.token);
  if (res.status < 300) {
    if (path.endsWith("/bulk-move") || path.endsWith("/bulk-delete")) {
      // The bulk answer is 200 with each item's outcome: a refused item counts as the answer it would be alone.
      const result = (await res.json()) as { failed: { code: string; message: string }[] };
      const [failed] = result.failed;
      if (failed) return { status: failed.code === "not_found" ? 404 : 403, body: { code: failed.code, message: failed.message } };
    }
    return { status: res.status };
  }
  return { status: res.status, body: await res.json() };
}

const OPS: Op[] = [
  {
    name: "create a report in a workbook (PUT reports/by-public-id, workbookId)",
    container: "workbook",
    ownWorks: WRITERS,
    ok: 200,
    run: (c, id) => call(c, "PUT", `/reports/by-public-id/${c.newPublicId()}`, { name: "r", workbookId: id }),
  },
  {
    name: "create a report in a folder (PUT reports/by-public-id, folderId)",
    container: "folder",
    ownWorks: WRITERS,
    ok: 200,
    run: (c, id) => call(c, "PUT", `/reports/by-public-id/${c.newPublicId()}`, { name: "r", folderId: id }),
  },
  {
    name: "put an own report into a workbook (PUT reports/by-public-id, workbookId)",
    container: "workbook",
    ownWorks: WRITERS,
    ok: 200,
    subject: (c) => c.ownReport(),
    run: (c, id, publicId: string) => call(c, "PUT", `/reports/by-public-id/${publicId}`, { workbookId: id }),
  },
  {
    name: "move an own report to a folder (PUT reports/by-public-id, folderId)",
    container: "folder",
    ownWorks: WRITERS,
    ok: 200,
    subject: (c) => c.ownReport(),
    run: (c, id, publicId: string) => call(c, "PUT", `/reports/by-public-id/${publicId}`, { folderId: id }),
  },
  {
    name: "add a report to a workbook (POST app/workbooks/{id}/reports)",
    container: "workbook",
    ownWorks: WRITERS,
    ok: 201,
    run: (c, id) => call(c, "POST", `/app/workbooks/${id}/reports`, { name: "sheet" }),
  },
  {
    name: "save a chat answer as a report in a workbook",
    container: "workbook",
    ownWorks: WRITERS,
    ok: 200,
    run: (c, id) => c.asService((p) => saveAs(c, p, { kind: "workbook", workbookId: id })),
  },
  {
    name: "save a chat answer as a report in a folder",
    container: "folder",
    ownWorks: WRITERS,
    ok: 200,
    run: (c, id) => c.asService((p) => saveAs(c, p, { kind: "folder", folderId: id })),
  },
  {
    name: "create a workbook in a folder (POST workbooks)",
    container: "folder",
    ownWorks: WRITERS,
    ok: 201,
    run: (c, id) => call(c, "POST", "/workbooks", { name: "w", folderId: id }),
  },
  {
    name: "create a workbook in a folder (PUT workbooks/by-slug)",
    container: "folder",
    ownWorks: WRITERS,
    ok: 200,
    run: (c, id) => call(c, "PUT", `/workbooks/by-slug/${c.newSlug()}`, { folderId: id }),
  },
  {
    name: "move an own workbook to a folder (PUT workbooks/{id})",
    container: "folder",
    ownWorks: WRITERS,
    ok: 200,
    subject: (c) => c.ownWorkbook(),
    run: (c, id, workbookId: number) => call(c, "PUT", `/workbooks/${workbookId}`, { folderId: id }),
  },
  {
    name: "duplicate an own workbook into a folder",
    container: "folder",
    ownWorks: WRITERS,
    ok: 201,
    subject: (c) => c.ownWorkbook(),
    run: (c, id, workbookId: number) => call(c, "POST", `/workbooks/${workbookId}/duplicate`, { folderId: id }),
  },
  {
    name: "bulk-move an own workbook to a folder",
    container: "folder",
    ownWorks: WRITERS,
    ok: 200,
    subject: (c) => c.ownWorkbook(),
    run: (c, id, workbookId: number) => call(c, "POST", "/workspace/bulk-move", { items: [{ type: "WORKBOOK", id: workbookId }], targetFolderId: id }),
  },
  {
    name: "create a folder in a folder (POST folders, parentId)",
    container: "folder",
    ownWorks: WRITERS,
    ok: 201,
    run: (c, id) => call(c, "POST", "/folders", { name: "f", parentId: id }),
  },
  {
    name: "move an own folder into a folder (PUT folders/{id}, parentId)",
    container: "folder",
    ownWorks: WRITERS,
    ok: 200,
    subject: (c) => c.ownFolder(),
    run: (c, id, folderId: number) => call(c, "PUT", `/folders/${folderId}`, { parentId: id }),
  },
  {
    name: "write a workbook's dashboard draft",
    container: "workbook",
    ownWorks: WRITERS,
    ok: 200,
    run: (c, id) => call(c, "PUT", `/workbooks/${id}/dashboard/draft`, { title: "d", widgets: [] }),
  },
  {
    name: "publish a workbook's dashboard",
    container: "workbook",
    ownWorks: WRITERS,
    ok: 200,
    run: (c, id) => call(c, "POST", `/workbooks/${id}/dashboard/publish`),
  },
  {
    name: "write an own dashboard draft that shows a report",
    container: "report",
    ownWorks: WRITERS,
    ok: 200,
    missing: 400,
    subject: (c) => c.ownWorkbook(),
    run: (c, reportId, workbookId: number) => call(c, "PUT", `/workbooks/${workbookId}/dashboard/draft`, { title: "d", widgets: [chartOf(reportId)] }),
  },
  {
    name: "publish an own dashboard whose draft shows a report",
    container: "report",
    ownWorks: WRITERS,
    ok: 200,
    missing: 400,
    // A draft naming the report, stored as it may be from before the draft was checked (or
    // written by an admin); publishing is where the report is copied into the dashboard.
    subject: async (c, reportId) => {
      const workbookId = await c.ownWorkbook();
      const draft = JSON.stringify({ title: "d", widgets: [chartOf(reportId)] });
      await c.t.deps.db.execute(sql`UPDATE workbooks SET meta = jsonb_set(meta, '{dashboardDraft}', ${draft}::jsonb) WHERE id = ${workbookId}`);
      return workbookId;
    },
    run: (c, _id, workbookId: number) => call(c, "POST", `/workbooks/${workbookId}/dashboard/publish`),
  },
  {
    name: "bulk-delete a workbook",
    container: "workbook",
    ownWorks: WRITERS,
    ok: 200,
    ownTarget: (c) => c.ownWorkbook(),
    run: (c, id) => call(c, "POST", "/workspace/bulk-delete", { items: [{ type: "WORKBOOK", id }] }),
  },
  {
    name: "connect a report to a spreadsheet (PUT reports/{id}/connect-workbook)",
    container: "report",
    ownWorks: WRITERS,
    ok: 200,
    run: (c, id) => call(c, "PUT", `/reports/${id}/connect-workbook`, { externalWorkbookId: "sheet-1", resultLocation: "A1" }),
  },
  {
    name: "share a workbook with the tenant (PUT app/shares)",
    container: "workbook",
    ownWorks: ["creator"],
    ok: 200,
    run: (c, id) => call(c, "PUT", `/app/shares/workbook/${id}`, { shared: [{ kind: "all_embed_users" }] }),
  },
  {
    name: "set a workbook's embed access",
    container: "workbook",
    ownWorks: ["platform user", "admin"],
    ok: 200,
    run: (c, id) => call(c, "PUT", `/workbooks/${id}/embed-access`, { rules: [{ embedTenantName: "globex-inc", action: "read" }] }),
  },
  {
    name: "grant on a folder (PUT grants)",
    container: "folder",
    ownWorks: ["platform user", "admin"],
    ok: 200,
    run: (c, id) => call(c, "PUT", "/grants", { objectType: "folder", objectId: id, principalType: "user", principalId: c.t.adminUserId, level: "read" }),
  },
];

function chartOf(reportId: number) {
  return { id: "w1", type: "CHART", position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId } };
}

async function saveAs(c: Ctx, principal: Principal, destination: { kind: "workbook"; workbookId: number } | { kind: "folder"; folderId: number }) {
  const dep = Number(c.d("").split("/")[4]);
  const actor = await authoringActor(c.t.deps, principal, dep);
  return saveQueryAsReport(c.t.deps, actor, dep, { name: "saved", destination, query: { measures: ["sales.count"] } as SemanticQuery });
}

/** The tables a write into a container could touch. */
const SNAPSHOT_TABLES = ["folders", "workbooks", "reports", "grants", "embed_access", "dashboards", "dashboard_versions"];
/**
 * A fingerprint of every row of each table, by table (a failure names the table that changed),
 * in one statement — a round trip, not one per table: it runs twice for every foreign container
 * of every case, so the rows' text stays in the database and only the hashes come back.
 */
const SNAPSHOT_SQL = sql.raw(
  `SELECT ${SNAPSHOT_TABLES.map((table) => `md5(coalesce((SELECT string_agg(x::text, '|' ORDER BY x.id) FROM ${table} x), '')) AS ${table}`).join(", ")}`,
);
async function snapshot(t: TestPlatform): Promise<Record<string, string>> {
  const [row] = await rowsOf<Record<string, string>>(t.deps.db, SNAPSHOT_SQL);
  return row!;
}

describe.each(storageKinds)("writes naming another tenant's container (%s)", (storage) => {
  let t: TestPlatform;
  let dep: number;
  let otherDep: number;
  const tokens: Record<string, string> = {};
  const containers = {} as Record<Owner, Record<Kind, number>>;
  let counter = 0;

  const d = (path: string, id = dep) => `/api/v1/deployments/${id}${path}`;
  async function made(res: Promise<Response>, what: string): Promise<Record<string, unknown>> {
    const r = await res;
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${await r.text()}`);
    return (await r.json()) as Record<string, unknown>;
  }

  beforeAll(async () => {
    t = await createTestPlatform({ storage });
    [dep, otherDep] = await t.addDeployments("cross-tenant", "cross-tenant-other");
    const creator = { creatorMode: true, settings: { allowChatWorkspaceAuthoring: true } };
    tokens["acme-corp embed creator"] = (await embedSession(t, dep!, { externalId: "ann@acme.test", embedTenantName: "acme-corp", ...creator })).token;
    tokens["globex-inc embed creator"] = (await embedSession(t, dep!, { externalId: "gil@globex.test", embedTenantName: "globex-inc", ...creator })).token;
    tokens["acme-corp embed viewer"] = (await embedSession(t, dep!, { externalId: "vic@acme.test", embedTenantName: "acme-corp" })).token;
    tokens["globex-inc embed viewer"] = (await embedSession(t, dep!, { externalId: "val@globex.test", embedTenantName: "globex-inc" })).token;
    tokens["platform ai_bi_user"] = (await t.addUser("analyst@example.com", "ai_bi_user")).token;
    tokens["platform viewer"] = (await t.addUser("viewer@example.com", "viewer")).token;
    tokens["admin API key"] = t.adminToken;

    const owners: [Owner, string, number][] = [
      ["acme", tokens["acme-corp embed creator"]!, dep!],
      ["globex", tokens["globex-inc embed creator"]!, dep!],
      ["analyst", tokens["platform ai_bi_user"]!, dep!],
      ["admin", t.adminToken, dep!],
      ["otherDeployment", t.adminToken, otherDep!],
    ];
    for (const [owner, token, deploymentId] of owners) {
      const folder = await made(t.api("POST", d("/folders", deploymentId), { name: `${owner} folder` }, token), `${owner} folder`);
      const workbook = await made(t.api("POST", d("/workbooks", deploymentId), { name: `${owner} workbook`, folderId: folder.id }, token), `${owner} workbook`);
      // A draft to publish, and a report in the folder.
      await made(t.api("PUT", d(`/workbooks/${workbook.id}/dashboard/draft`, deploymentId), { title: owner, widgets: [] }, token), `${owner} draft`);
      const report = await made(
        t.api("PUT", d(`/reports/by-public-id/${owner.slice(0, 5).padEnd(12, "0")}`, deploymentId), { name: `${owner} report`, folderId: folder.id }, token),
        `${owner} report`,
      );
      containers[owner] = { folder: folder.id as number, workbook: workbook.id as number, report: report.id as number };
    }
  }, 60_000);
  afterAll(() => t?.close());

  function ctxOf(caller: Caller): Ctx {
    const token = tokens[caller.name]!;
    const maker = caller.owns ? token : t.adminToken;
    return {
      t,
      caller,
      token,
      d: (path) => d(path),
      newPublicId: () => `X${String(++counter).padStart(11, "0")}`,
      newSlug: () => `cross-${++counter}`,
      ownWorkbook: async () => (await made(t.api("POST", d("/workbooks"), { name: "mine" }, maker), "own workbook")).id as number,
      ownFolder: async () => (await made(t.api("POST", d("/folders"), { name: "mine" }, maker), "own folder")).id as number,
      ownReport: async () => {
        const publicId = `Y${String(++counter).padStart(11, "0")}`;
        await made(t.api("PUT", d(`/reports/by-public-id/${publicId}`), { name: "mine" }, maker), "own report");
        return publicId;
      },
      asService: async (run) => {
        const principal = token.startsWith("svc_") ? await authenticateApiKey(t.deps.db, token) : await t.deps.embedSessions.authenticate(token);
        try {
          await run(principal!);
          return { status: 200 };
        } catch (e) {
          if (!(e instanceof DomainError)) throw e;
          const status = e.code === "not_found" ? 404 : e.code === "forbidden" ? 403 : 400;
          return { status, body: { code: e.code, message: e.message } };
        }
      },
    };
  }

  for (const caller of CALLERS) {
    // The admin sees every container of the deployment: only another deployment's is foreign to it.
    const foreign = (["acme", "globex", "analyst", "admin", "otherDeployment"] as Owner[]).filter(
      (o) => o !== caller.owns && (caller.kind !== "admin" || o === "otherDeployment"),
    );
    describe(caller.name, () => {
      it.each(OPS.map((op) => [op.name, op] as const))("%s", async (_name, op) => {
        const ctx = ctxOf(caller);
        const run = async (containerId: number) => op.run(ctx, containerId, (await op.subject?.(ctx, containerId)) as never);
        const missing = await run(MISSING);
        const mayWrite = op.ownWorks.includes(caller.kind);
        if (mayWrite) {
          // A missing container is a 404 (or the operation's own refusal) for whoever may write here at all.
          expect(missing.status).toBe(op.missing ?? 404);
          const own = await run(op.ownTarget ? await op.ownTarget(ctx) : containers[caller.owns!][op.container]);
          expect({ own: own.status, body: own.body }).toEqual({ own: op.ok, body: undefined });
        }
        for (const owner of foreign) {
          const subject = (await op.subject?.(ctx, containers[owner][op.container])) as never;
          const before = await snapshot(t);
          const answer = await op.run(ctx, containers[owner][op.container], subject);
          // Exactly the answer for an id that does not exist: status, code and message.
          expect({ owner, ...answer }).toEqual({ owner, ...missing });
          expect(await snapshot(t), `${owner}'s ${op.container}: nothing written`).toEqual(before);
        }
      });
    });
  }

  it("sees a write in the fingerprint, and names the table written", async () => {
    const before = await snapshot(t);
    await t.deps.db.execute(sql`UPDATE folders SET name = name || ' (renamed)' WHERE id = ${containers.acme.folder}`);
    const after = await snapshot(t);
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual(["folders"]);
    await t.deps.db.execute(sql`UPDATE folders SET name = left(name, length(name) - 10) WHERE id = ${containers.acme.folder}`);
    expect(await snapshot(t)).toEqual(before);
  });

  it("keeps a refused report out of the workbook it named (issue 34, item 4)", async () => {
    const acmeWorkbook = containers.acme.workbook;
    const res = await t.api("PUT", d("/reports/by-public-id/GlobexInAcme"), { name: "py", workbookId: acmeWorkbook }, tokens["globex-inc embed creator"]);
    expect(res.status).toBe(404);
    const sheets = await made(t.api("GET", d(`/app/workbooks/${acmeWorkbook}/reports`), undefined, tokens["acme-corp embed creator"]), "acme sheets");
    expect((sheets.items as { publicId: string }[]).map((r) => r.publicId)).not.toContain("GlobexInAcme");
  });

  it("tells a taken slug without naming another tenant's workbook, and refuses its takeover like a missing workbook", async () => {
    const acme = tokens["acme-corp embed creator"]!;
    const globex = tokens["globex-inc embed creator"]!;
    await made(t.api("PUT", d("/workbooks/by-slug/acme-plan"), { name: "acme plan" }, acme), "acme plan");
    const mine = (await made(t.api("POST", d("/workbooks"), { name: "globex plan" }, globex), "globex plan")).id as number;
    const taken = await t.api("PUT", d(`/workbooks/${mine}`), { slug: "acme-plan" }, globex);
    expect({ status: taken.status, body: await taken.json() }).toEqual({
      status: 409,
      body: { code: "slug_taken", message: "The slug acme-plan is taken in this deployment; send slugTakeover: true to take it over" },
    });
    const takeover = await t.api("PUT", d(`/workbooks/${mine}`), { slug: "acme-plan", slugTakeover: true }, globex);
    expect({ status: takeover.status, body: await takeover.json() }).toEqual({ status: 404, body: { code: "not_found", message: "Workbook not found" } });
    const held = await made(t.api("PUT", d("/workbooks/by-slug/acme-plan"), {}, acme), "acme plan again");
    expect(held.name).toBe("acme plan");
  });

  it("answers another tenant's report public id like another user's, 404, and leaves it alone (issue 34, item 6)", async () => {
    await made(t.api("PUT", d("/reports/by-public-id/AcmeReport01"), { name: "acme" }, tokens["acme-corp embed creator"]), "acme report");
    const res = await t.api("PUT", d("/reports/by-public-id/AcmeReport01"), { name: "hijacked" }, tokens["globex-inc embed creator"]);
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 404, body: { code: "not_found", message: "Report not found" } });
    const list = await made(t.api("GET", d("/reports?search=AcmeReport01"), undefined, tokens["acme-corp embed creator"]), "acme reports");
    expect((list.items as { name: string }[]).map((r) => r.name)).toEqual(["acme"]);
  });
});
