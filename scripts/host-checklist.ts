/**
 * Writes docs/embedding.md's "Host checklist" list from the rules `svc host-check` verifies
 * (src/cli/host-check/rules.ts), between its two markers:
 *
 *   npx tsx scripts/host-checklist.ts          rewrite the list
 *   npx tsx scripts/host-checklist.ts --check  exit 1 when the docs differ from the rules
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { hostChecklistMarkdown } from "../src/cli/host-check/rules";

export const DOC = fileURLToPath(new URL("../docs/embedding.md", import.meta.url));
export const BEGIN = "<!-- host-checklist:begin (scripts/host-checklist.ts) -->";
export const END = "<!-- host-checklist:end -->";

/** The doc's text with the list between the markers rewritten. */
export function withChecklist(doc: string): string {
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/embedding.md lacks the markers ${BEGIN} … ${END}`);
  return `${doc.slice(0, from + BEGIN.length)}\n${hostChecklistMarkdown()}\n${doc.slice(to)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = readFileSync(DOC, "utf8");
  const next = withChecklist(doc);
  if (process.argv.includes("--check")) process.exit(next === doc ? 0 : 1);
  writeFileSync(DOC, next);
}
