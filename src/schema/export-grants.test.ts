import { describe, expect, it } from "vitest";
import { GenerateSessionInput } from "./embed-session";
import { ExportGrant, grantedExportFormats, offeredExportFormats } from "./export-grants";
import { DataExportFormat } from "./export-grants";
import { QueryInputSchema } from "./semantic-query";

describe("ExportGrant (settings.allowExport)", () => {
  it.each([[true], [false], [[]], [["csv"]], [["csv", "xlsx", "png", "pdf"]], [["pdf", "png"]]])("accepts %j", (value) => {
    expect(ExportGrant.safeParse(value).success).toBe(true);
  });
  it.each([["true"], [["docx"]], [["CSV"]], [["csv", "csv"]], [null], [1], [{ csv: true }], [["csv", "xlsx", "png", "pdf", "csv"]]])("refuses %j", (value) => {
    expect(ExportGrant.safeParse(value).success).toBe(false);
  });
  it("is a session setting, checked with the rest of the session request", () => {
    expect(GenerateSessionInput.safeParse({ deploymentId: 1, settings: { allowExport: ["csv", "xlsx"] } }).success).toBe(true);
    const bad = GenerateSessionInput.safeParse({ deploymentId: 1, settings: { allowExport: ["csv", "html"] } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path.slice(0, 2)).toEqual(["settings", "allowExport"]);
  });
});

describe("grantedExportFormats", () => {
  it.each([
    [undefined, ["csv", "xlsx", "png", "pdf"]],
    [true, ["csv", "xlsx", "png", "pdf"]],
    [false, []],
    [[], []],
    [
      ["pdf", "csv"],
      ["csv", "pdf"],
    ],
    // A claim that is no grant allows nothing.
    ["true", []],
    [["csv", "docx"], []],
    [null, []],
  ])("%j → %j", (setting, expected) => {
    expect(grantedExportFormats(setting)).toEqual(expected);
  });
});

describe("offeredExportFormats: the URL and the dashboard only narrow the grant", () => {
  it("offers the grant when the URL says allowExport=true", () => {
    expect(offeredExportFormats({ granted: ["csv"], urlAllowsExport: true })).toEqual(["csv"]);
  });
  it("offers nothing without allowExport=true, whatever the grant", () => {
    expect(offeredExportFormats({ granted: ["csv", "xlsx", "png", "pdf"], urlAllowsExport: false })).toEqual([]);
  });
  it("offers nothing on a dashboard that restricts data download", () => {
    expect(offeredExportFormats({ granted: ["csv", "png"], urlAllowsExport: true, restrictDataDownload: true })).toEqual([]);
    expect(offeredExportFormats({ granted: ["csv", "png"], urlAllowsExport: true, restrictDataDownload: null })).toEqual(["csv", "png"]);
  });
});

describe("QueryInput.export", () => {
  it("takes the row formats only", () => {
    expect(DataExportFormat.options).toEqual(["csv", "xlsx"]);
    expect(QueryInputSchema.safeParse({ query: { measures: ["a.b"] }, export: { format: "csv" } }).success).toBe(true);
    expect(QueryInputSchema.safeParse({ query: { measures: ["a.b"] }, export: { format: "pdf" } }).success).toBe(false);
    expect(QueryInputSchema.safeParse({ query: { measures: ["a.b"] }, export: { format: "csv", rows: [] } }).success).toBe(false);
  });
});
