/**
 * "Save as report": an answer of the chat that ran a query becomes a report in the caller's
 * workspace — a new workbook in their personal space or in a folder they can edit, or a new
 * sheet of a workbook they can edit. Who may: platform users with the role ai_bi_user or
 * higher, and embed creators whose session sets `allowChatWorkspaceAuthoring` (they act
 * through the creator access module, as in the app). Everything is checked here, on the
 * server; the surfaces only show the button where this says yes.
 */
import { and, eq, sql } from "drizzle-orm";
import type { ChatReportDestination, ChatReportDestinations, SavedChatReport } from "../../../schema/chat";
import type { PeriodComparison } from "../../../schema/dashboard";
import { SemanticQuerySchema, type SemanticQuery } from "../../../schema/semantic-query";
import type { AppDeps, Principal } from "../../context";
import type { Db } from "../../db/connection";
import { chatMessages } from "../../db/schema";
import { hasRole, type UserPrincipal } from "../../domain/actor";
import { conflict, DomainError, forbidden, notFound } from "../../domain/errors";
import type { AnswerPart } from "../../ai/types";
import { creatorActorOf, isCreatorSession } from "../access/creator";
import { folderPaths, rowsOf } from "../access/service";
import { createWorkbookReport } from "../creator-app/service";
import { createWorkbook, requireWorkbook } from "../workbooks/service";
import { requireFolder } from "../folders/service";
import { assertAiAllowed, isAnswerRunning, ownThread } from "./service";

/** The session settings an embed principal carries, creator settings included (as the app reads them). */
function sessionSettings(p: Principal): Record<string, unknown> {
  if (p.kind !== "embed") return {};
  return { ...p.settings, ...(typeof p.creatorMode === "object" ? p.creatorMode : {}) };
}

/** Why the caller may not save chat answers, or null when they may (no storage read). */
export function authoringRefusal(principal: Principal): string | null {
  if (principal.kind === "user") return hasRole(principal, "ai_bi_user") ? null : "Saving a report needs the role ai_bi_user or higher";
  if (sessionSettings(principal).allowChatWorkspaceAuthoring !== true) return "This session does not allow saving chat answers (allowChatWorkspaceAuthoring)";
  if (!isCreatorSession(principal)) return "Saving chat answers needs a creator session (creatorMode, externalId and embedTenantName)";
  return null;
}

/** The platform principal that writes the report: the user, or the embed creator's account. Refused (403) otherwise. */
export async function authoringActor(deps: AppDeps, principal: Principal, deploymentId: number): Promise<UserPrincipal> {
  const refusal = authoringRefusal(principal);
  if (refusal) throw forbidden(refusal);
  if (principal.kind === "user") return principal;
  if (principal.deploymentId !== deploymentId) throw notFound("Deployment");
  return creatorActorOf(deps.db, principal);
}

const MAX_DESTINATIONS = 200;

/** Folders and workbooks of the deployment the actor can edit (the same rules as `accessLevel`), most recent first. */
async function editable(db: Db, deploymentId: number, actor: UserPrincipal) {
  const uid = actor.userId;
  const admin = actor.role === "admin";
  const mine = sql`((g.principal_type = 'user' AND g.principal_id = ${uid})
      OR (g.principal_type = 'group' AND g.principal_id IN (SELECT group_id FROM group_members WHERE user_id = ${uid})))`;
  const editableFolders = admin
    ? sql`SELECT id FROM folders WHERE deployment_id = ${deploymentId}`
    : sql`WITH RECURSIVE seeds AS (
          SELECT id FROM folders WHERE deployment_id = ${deploymentId} AND created_by = ${uid}
          UNION SELECT g.object_id FROM grants g WHERE g.object_type = 'folder' AND g.level IN ('edit', 'manage') AND ${mine}
        ), tree(id) AS (
          SELECT f.id FROM folders f JOIN seeds s ON f.id = s.id WHERE f.deployment_id = ${deploymentId}
          UNION SELECT f.id FROM folders f JOIN tree t ON f.parent_id = t.id
        ) SELECT id FROM tree`;
  const folderRows = await rowsOf<{ id: number; name: string }>(
    db,
    sql`SELECT f.id, f.name FROM folders f WHERE f.id IN (${editableFolders}) ORDER BY f.updated_at DESC, f.id DESC LIMIT ${MAX_DESTINATIONS}`,
  );
  const workbookRows = await rowsOf<{ id: number; name: string; folder_id: number | null }>(
    db,
    sql`SELECT w.id, w.name, w.folder_id FROM workbooks w
        WHERE w.deployment_id = ${deploymentId}
          AND (${admin} OR w.created_by = ${uid} OR w.folder_id IN (${editableFolders})
               OR EXISTS (SELECT 1 FROM grants g WHERE g.object_type = 'workbook' AND g.object_id = w.id AND g.level IN ('edit', 'manage') AND ${mine}))
        ORDER BY w.updated_at DESC, w.id DESC LIMIT ${MAX_DESTINATIONS}`,
  );
  const paths = await folderPaths(db, [
    ...folderRows.map((f) => Number(f.id)),
    ...workbookRows.filter((w) => w.folder_id !== null).map((w) => Number(w.folder_id)),
  ]);
  return {
    folders: folderRows.map((f) => ({ id: Number(f.id), name: f.name, path: (paths.get(Number(f.id)) ?? []).filter((p) => p.id !== Number(f.id)) })),
    workbooks: workbookRows.map((w) => ({ id: Number(w.id), name: w.name, path: w.folder_id === null ? [] : (paths.get(Number(w.folder_id)) ?? []) })),
  };
}

/** `GET …/chat/report-destinations`: whether the caller may save answers, and where. */
export async function reportDestinations(deps: AppDeps, principal: Principal, deploymentId: number): Promise<ChatReportDestinations> {
  assertAiAllowed(principal, deploymentId);
  const refusal = authoringRefusal(principal);
  if (refusal) return { allowed: false, reason: refusal, folders: [], workbooks: [] };
  await deps.queryEngines.get(deploymentId); // the deployment exists
  const actor = await authoringActor(deps, principal, deploymentId);
  return { allowed: true, ...(await editable(deps.db, deploymentId, actor)) };
}

/** A report's Vega-Lite spec from an answer's chart: the chart without its rows (the report runs its query). */
function reportSpecOf(chart: Extract<AnswerPart, { type: "chart" }> | undefined): { kind: "table" | "vega"; spec?: Record<string, unknown> } {
  if (!chart || typeof chart.spec !== "object" || chart.spec === null) return { kind: "table" };
  const { data: _data, $schema: _schema, ...spec } = chart.spec as Record<string, unknown>;
  void _data;
  void _schema;
  return { kind: "vega", spec };
}

/**
 * Writes a report from a query: in a new workbook (personal space or a folder) or in an
 * existing workbook. One transaction: a failure leaves no empty workbook behind.
 */
export async function saveQueryAsReport(
  deps: AppDeps,
  actor: UserPrincipal,
  deploymentId: number,
  input: {
    name: string;
    destination: ChatReportDestination;
    query: SemanticQuery;
    periodComparisons?: PeriodComparison[];
    chart?: Extract<AnswerPart, { type: "chart" }>;
  },
): Promise<SavedChatReport> {
  const { kind, spec } = reportSpecOf(input.chart);
  const query: Record<string, unknown> = { ...input.query };
  return deps.db.transaction(async (txHandle) => {
    const tx: Db = txHandle;
    let workbook: { id: number; name: string; folderId: number | null; created: boolean };
    if (input.destination.kind === "workbook") {
      const { row } = await requireWorkbook(tx, deploymentId, input.destination.workbookId, actor, "edit");
      workbook = { id: row.id, name: row.name, folderId: row.folderId, created: false };
    } else {
      const folderId = input.destination.kind === "folder" ? input.destination.folderId : null;
      if (folderId !== null) await requireFolder(tx, deploymentId, folderId, actor, "edit");
      const created = await createWorkbook(tx, deploymentId, { name: input.name, folderId }, actor);
      workbook = { id: created.id, name: created.name, folderId, created: true };
    }
    const report = await createWorkbookReport(
      tx,
      deploymentId,
      workbook.id,
      { name: input.name, kind, query, ...(spec ? { spec } : {}), ...(input.periodComparisons?.length ? { periodComparisons: input.periodComparisons } : {}) },
      actor,
    );
    const folderPath = workbook.folderId === null ? [] : ((await folderPaths(tx, [workbook.folderId])).get(workbook.folderId) ?? []);
    return {
      report: { id: report.id, publicId: report.publicId, name: report.name },
      workbook: { id: workbook.id, name: workbook.name, created: workbook.created },
      folderPath,
      appPath: `/d/${deploymentId}/app/workbooks/${workbook.id}/reports/${report.id}`,
    };
  });
}

/**
 * `POST …/chat/threads/{threadId}/messages/{messageId}/report`: saves the query of one of the
 * caller's finished answers (the stored one, never a query sent by the client).
 */
export async function saveAnswerAsReport(
  deps: AppDeps,
  principal: Principal,
  deploymentId: number,
  threadId: string,
  messageId: string,
  input: { name: string; destination: ChatReportDestination },
): Promise<SavedChatReport> {
  assertAiAllowed(principal, deploymentId);
  const actor = await authoringActor(deps, principal, deploymentId);
  const thread = await ownThread(deps, principal, deploymentId, threadId);
  const [message] = await deps.db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.threadId, thread.id), eq(chatMessages.id, messageId), eq(chatMessages.role, "assistant")));
  if (!message || message.status === "running") {
    if (isAnswerRunning(deps, thread.id, messageId) || message) throw conflict("The answer is still being written");
    throw notFound("Chat answer");
  }
  const parts = ((message.state as { parts?: AnswerPart[] }).parts ?? []) as AnswerPart[];
  const queries = parts.filter((p): p is Extract<AnswerPart, { type: "query" }> => p.type === "query");
  const last = queries[queries.length - 1];
  if (!last) throw new DomainError("validation_failed", "This answer has no query to save");
  const parsed = SemanticQuerySchema.safeParse(last.query);
  if (!parsed.success) throw new DomainError("validation_failed", "This answer's query cannot be saved");
  const chart = [...parts].reverse().find((p): p is Extract<AnswerPart, { type: "chart" }> => p.type === "chart");
  return saveQueryAsReport(deps, actor, deploymentId, { ...input, query: last.query, periodComparisons: last.periodComparisons, chart });
}
