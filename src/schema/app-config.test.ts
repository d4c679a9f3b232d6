import { describe, expect, it } from "vitest";
import { AppConfigPatch, resolveAppConfig } from "./app-config";

describe("app config", () => {
  it("has the defaults of decisions.md: semantic SQL shown, generated SQL hidden", () => {
    const c = resolveAppConfig(null);
    expect(c.creatorMode).toEqual({ localizedTitles: [], showGeneratedSql: false, showSemanticSql: true });
    expect(c.embedding.showDashboardChat).toBe(false);
    expect(c.sheetsUi.showAppliedFilters).toBe(true);
  });
  it("applies a stored patch field by field", () => {
    const c = resolveAppConfig({ creatorMode: { showGeneratedSql: true } });
    expect(c.creatorMode.showGeneratedSql).toBe(true);
    expect(c.creatorMode.showSemanticSql).toBe(true);
  });
  it("refuses unknown keys in a patch", () => {
    expect(AppConfigPatch.safeParse({ nope: 1 }).success).toBe(false);
  });
});
