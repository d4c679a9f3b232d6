import { describe, expect, it } from "vitest";
import { appPath, parseAppPath } from "./app-api";

describe("app in-embed paths", () => {
  it("parses every path of decisions.md and writes it back the same", () => {
    for (const path of [
      "/d/7/app",
      "/d/7/app/folders/3",
      "/d/7/app/workbooks/12",
      "/d/7/app/workbooks/12/reports/40",
      "/d/7/app/workbooks/12/dashboard",
      "/d/7/app/workbooks/12/dashboard/published",
      "/d/7/app/chat",
      "/d/7/app/chat/t_1",
    ]) {
      const route = parseAppPath(path, 7);
      expect(route).not.toBeNull();
      expect(appPath(7, route!)).toBe(path);
    }
    expect(parseAppPath("/d/7/app/", 7)).toEqual({ kind: "home" });
  });

  it("refuses other deployments, unknown paths and bad ids", () => {
    for (const path of [
      "/d/8/app",
      "/d/7/apps",
      "/d/7/app/folders/0",
      "/d/7/app/folders/x",
      "/d/7/app/workbooks/1/secret",
      "/dashboard/abc",
      "/d/7/app/chat/a b",
    ]) {
      expect(parseAppPath(path, 7)).toBeNull();
    }
  });
});
