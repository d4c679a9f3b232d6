// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { createColorSchemeController, type ColorSchemeWindow } from "./color-scheme";
import { applyEmbedTheme, contrastTextColor, sanitizeColor, sanitizeEmbedTheme, sanitizeFontFamily, sanitizeLength } from "./embed-theme";

describe("sanitizeColor", () => {
  const cases: Array<[unknown, string | null]> = [
    ["#0a6cff", "#0a6cff"],
    ["#FFF", "#FFF"],
    ["#11223344", "#11223344"],
    ["rgb(10, 20, 30)", "rgb(10, 20, 30)"],
    ["rgba(10,20,30,0.5)", "rgba(10,20,30,0.5)"],
    ["hsl(210 50% 40% / 0.8)", "hsl(210 50% 40% / 0.8)"],
    ["rebeccapurple", "rebeccapurple"],
    ["  #abc ", "#abc"],
    ["#abcde", null],
    ["red; background: url(https://evil.example/x)", null],
    ["url(https://evil.example/x)", null],
    ["expression(alert(1))", null],
    ["rgb(1,2,3) !important", null],
    ["var(--x)", null],
    ["#fff}body{display:none", null],
    [12, null],
    [null, null],
  ];
  it.each(cases)("maps %j to %j", (input, expected) => expect(sanitizeColor(input)).toBe(expected));
});

describe("sanitizeLength", () => {
  const cases: Array<[unknown, string | null]> = [
    [6, "6px"],
    [0, "0px"],
    ["8px", "8px"],
    ["0.5rem", "0.5rem"],
    ["12", "12px"],
    ["0", "0px"],
    ["50%", "50%"],
    [-1, null],
    [1000, null],
    [Number.NaN, null],
    ["8px;color:red", null],
    ["calc(1px + 2px)", null],
    ["8 px", null],
  ];
  it.each(cases)("maps %j to %j", (input, expected) => expect(sanitizeLength(input)).toBe(expected));
});

describe("sanitizeFontFamily", () => {
  const cases: Array<[unknown, string | null]> = [
    ["Inter", "Inter"],
    ["Inter, system-ui, sans-serif", "Inter, system-ui, sans-serif"],
    ['"Open Sans",Arial', '"Open Sans", Arial'],
    ["Inter; color: red", null],
    ["url(x)", null],
    ['"Bad\\"Quote"', null],
    ["", null],
    [{}, null],
  ];
  it.each(cases)("maps %j to %j", (input, expected) => expect(sanitizeFontFamily(input)).toBe(expected));
});

describe("sanitizeEmbedTheme", () => {
  it("keeps valid fields, drops unknown keys and lists refused values", () => {
    const result = sanitizeEmbedTheme({
      primaryColor: "#123456",
      borderRadius: 4,
      font: "x;y",
      unknown: "ignored",
      analyticsChat: { backgroundColor: "white", chatInput: { backgroundColor: "url(x)", borderColor: "#ccc" } },
      chat: { inputColor: "black" },
    });
    expect(result.theme).toEqual({
      primaryColor: "#123456",
      borderRadius: "4px",
      analyticsChat: { backgroundColor: "white", chatInput: { borderColor: "#ccc" } },
      chat: { inputColor: "black" },
    });
    expect(result.rejected).toEqual(["font", "analyticsChat.chatInput.backgroundColor"]);
  });

  it("treats non-objects as an empty theme", () => {
    expect(sanitizeEmbedTheme(null)).toEqual({ theme: {}, rejected: [] });
    expect(sanitizeEmbedTheme("red")).toEqual({ theme: {}, rejected: [] });
  });
});

describe("contrastTextColor", () => {
  it("picks white on dark and dark on light backgrounds", () => {
    expect(contrastTextColor("#0a3d91")).toBe("#ffffff");
    expect(contrastTextColor("#ffd400")).toBe("#111827");
    expect(contrastTextColor("rgb(250, 250, 250)")).toBe("#111827");
    expect(contrastTextColor("navy")).toBe("#ffffff");
  });
});

describe("applyEmbedTheme", () => {
  afterEach(() => document.documentElement.removeAttribute("style"));

  it("writes custom properties on the root and removes those a new theme leaves out", () => {
    const root = document.documentElement;
    applyEmbedTheme(root, { primaryColor: "#ffd400", borderRadius: "10px", font: "Inter", chat: { inputColor: "#222" } });
    const style = getComputedStyle(root);
    expect(style.getPropertyValue("--svc-primary")).toBe("#ffd400");
    expect(style.getPropertyValue("--svc-primary-contrast")).toBe("#111827");
    expect(style.getPropertyValue("--svc-radius")).toBe("10px");
    expect(style.getPropertyValue("--svc-font")).toBe("Inter");
    expect(style.getPropertyValue("--svc-chat-input-color")).toBe("#222");

    applyEmbedTheme(root, { borderRadius: 2 });
    expect(root.style.getPropertyValue("--svc-primary")).toBe("");
    expect(root.style.getPropertyValue("--svc-font")).toBe("");
    expect(root.style.getPropertyValue("--svc-radius")).toBe("2px");
  });

  it("never lets an unsafe value reach the style attribute", () => {
    const root = document.documentElement;
    applyEmbedTheme(root, { primaryColor: "red;}body{background:url(//evil)", font: "a{}" });
    expect(root.getAttribute("style") ?? "").not.toMatch(/url|body|\{/);
  });
});

function fakeMediaWindow(initialDark: boolean) {
  const listeners = new Set<(e: { matches: boolean }) => void>();
  const media = {
    matches: initialDark,
    addEventListener: (_t: "change", l: (e: { matches: boolean }) => void) => listeners.add(l),
    removeEventListener: (_t: "change", l: (e: { matches: boolean }) => void) => listeners.delete(l),
  };
  const win: ColorSchemeWindow = { matchMedia: () => media, document };
  return {
    win,
    listeners,
    setOsDark(dark: boolean) {
      media.matches = dark;
      for (const l of [...listeners]) l({ matches: dark });
    },
  };
}

describe("createColorSchemeController", () => {
  const root = () => document.documentElement;

  it("starts light even when the OS prefers dark", () => {
    const { win } = fakeMediaWindow(true);
    const controller = createColorSchemeController({ window: win });
    expect(controller.resolved()).toBe("light");
    expect(root().getAttribute("data-color-scheme")).toBe("light");
    expect(root().style.getPropertyValue("color-scheme")).toBe("light");
    controller.destroy();
  });

  it("follows the OS live in auto mode and stops following when set explicitly", () => {
    const os = fakeMediaWindow(false);
    const seen: string[] = [];
    const controller = createColorSchemeController({ window: os.win, onResolvedChange: (s) => seen.push(s) });
    controller.set("auto");
    expect(controller.resolved()).toBe("light");
    os.setOsDark(true);
    expect(root().getAttribute("data-color-scheme")).toBe("dark");
    os.setOsDark(false);
    expect(root().getAttribute("data-color-scheme")).toBe("light");
    controller.set("dark");
    os.setOsDark(false);
    expect(root().getAttribute("data-color-scheme")).toBe("dark");
    expect(seen).toEqual(["light", "dark", "light", "dark"]);
    controller.destroy();
    expect(os.listeners.size).toBe(0);
  });
});
