/**
 * Brand theme (embedTheme of decisions.md) as CSS custom properties on the document root.
 * Host input reaches CSS only after it passed a strict colour / length / font-family check,
 * so a theme can never inject declarations, `url()` loads or expressions.
 */
import type { EmbedTheme } from "../../protocol";

const NAMED_COLOR = /^[a-z]{3,30}$/i;
const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NUMBER = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)(?:%|deg)?`;
const FUNCTIONAL_COLOR = new RegExp(String.raw`^(?:rgba?|hsla?)\(\s*${NUMBER}(?:\s*[,\s]\s*${NUMBER}){2}(?:\s*[,/]\s*${NUMBER})?\s*\)$`, "i");
const LENGTH = /^(?:0|\d{1,4}(?:\.\d{1,3})?(?:px|rem|em|%))$/;
const FONT_FAMILY_PART = /^(?:"[A-Za-z0-9 \-_.]{1,64}"|'[A-Za-z0-9 \-_.]{1,64}'|[A-Za-z][A-Za-z0-9 \-_]{0,63})$/;
const MAX_RADIUS_PX = 64;

/** A CSS colour: hex, rgb()/rgba()/hsl()/hsla() with plain numbers, or a colour keyword. */
export function sanitizeColor(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  if (v.length > 64) return null;
  return HEX_COLOR.test(v) || FUNCTIONAL_COLOR.test(v) || NAMED_COLOR.test(v) ? v : null;
}

/** A border radius: a number of px (0–64) or a CSS length in px, rem, em or %. */
export function sanitizeLength(value: unknown): string | null {
  if (typeof value === "number") {
    return Number.isFinite(value) && value >= 0 && value <= MAX_RADIUS_PX ? `${value}px` : null;
  }
  if (typeof value !== "string") return null;
  const v = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(v)) return sanitizeLength(Number(v));
  return LENGTH.test(v) ? v : null;
}

/** A font-family list of quoted or plain names. */
export function sanitizeFontFamily(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  if (v.length === 0 || v.length > 200) return null;
  const parts = v.split(",").map((p) => p.trim());
  return parts.every((p) => FONT_FAMILY_PART.test(p)) ? parts.join(", ") : null;
}

export interface SanitizedEmbedTheme {
  theme: EmbedTheme;
  /** Dotted paths of known fields whose values were refused. */
  rejected: string[];
}

/**
 * Keeps the known fields whose values are safe; unknown keys are dropped silently, refused
 * values are listed in `rejected`. Also accepts `undefined`/`null` as an empty theme.
 */
export function sanitizeEmbedTheme(input: unknown): SanitizedEmbedTheme {
  const theme: EmbedTheme = {};
  const rejected: string[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) return { theme, rejected };
  const source = input as Record<string, unknown>;
  const take = (path: string, raw: unknown, clean: (v: unknown) => string | null): string | undefined => {
    if (raw === undefined) return undefined;
    const value = clean(raw);
    if (value === null) rejected.push(path);
    return value ?? undefined;
  };
  const record = (v: unknown): Record<string, unknown> | undefined =>
    typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

  const primaryColor = take("primaryColor", source.primaryColor, sanitizeColor);
  if (primaryColor) theme.primaryColor = primaryColor;
  const font = take("font", source.font, sanitizeFontFamily);
  if (font) theme.font = font;
  const borderRadius = take("borderRadius", source.borderRadius, sanitizeLength);
  if (borderRadius) theme.borderRadius = borderRadius;

  const analyticsChat = record(source.analyticsChat);
  if (analyticsChat) {
    const backgroundColor = take("analyticsChat.backgroundColor", analyticsChat.backgroundColor, sanitizeColor);
    const input = record(analyticsChat.chatInput);
    const inputBackground = input && take("analyticsChat.chatInput.backgroundColor", input.backgroundColor, sanitizeColor);
    const inputBorder = input && take("analyticsChat.chatInput.borderColor", input.borderColor, sanitizeColor);
    if (backgroundColor || inputBackground || inputBorder) {
      theme.analyticsChat = {
        ...(backgroundColor ? { backgroundColor } : {}),
        ...(inputBackground || inputBorder
          ? { chatInput: { ...(inputBackground ? { backgroundColor: inputBackground } : {}), ...(inputBorder ? { borderColor: inputBorder } : {}) } }
          : {}),
      };
    }
  } else if (source.analyticsChat !== undefined) rejected.push("analyticsChat");
  const chat = record(source.chat);
  if (chat) {
    const inputColor = take("chat.inputColor", chat.inputColor, sanitizeColor);
    if (inputColor) theme.chat = { inputColor };
  } else if (source.chat !== undefined) rejected.push("chat");
  return { theme, rejected };
}

/** Parses `#rgb[a]`, `#rrggbb[aa]` and `rgb()`/`rgba()` into 0–255 channels. */
function parseRgb(color: string): [number, number, number] | null {
  const hex = color.match(HEX_COLOR)?.[0];
  if (hex) {
    const digits = hex.slice(1);
    const full = digits.length <= 4 ? [...digits].map((d) => d + d).join("") : digits;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb = color.match(/^rgba?\(\s*([\d.]+)%?\s*[,\s]\s*([\d.]+)%?\s*[,\s]\s*([\d.]+)%?/i);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])].map((n) => Math.min(255, n)) as [number, number, number];
  return null;
}

function relativeLuminance([r, g, b]: [number, number, number]): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/**
 * Text colour readable on `background` (WCAG contrast: whichever of white or near-black
 * contrasts more). Unparseable colours (keywords, hsl) get white.
 */
export function contrastTextColor(background: string): string {
  const rgb = parseRgb(background);
  if (!rgb) return "#ffffff";
  const l = relativeLuminance(rgb);
  const dark = 0.0103; // luminance of #111827
  return 1.05 / (l + 0.05) >= (l + 0.05) / (dark + 0.05) ? "#ffffff" : "#111827";
}

/** CSS custom properties every surface and chart reads. */
export const THEME_CSS_VARIABLES = [
  "--svc-primary",
  "--svc-primary-contrast",
  "--svc-primary-soft",
  "--svc-radius",
  "--svc-font",
  "--svc-chat-background",
  "--svc-chat-input-background",
  "--svc-chat-input-border",
  "--svc-chat-input-color",
] as const;
export type ThemeCssVariable = (typeof THEME_CSS_VARIABLES)[number];

/** Maps a sanitised theme to CSS custom properties; absent fields give absent properties. */
export function embedThemeToCssVariables(theme: EmbedTheme): Partial<Record<ThemeCssVariable, string>> {
  const vars: Partial<Record<ThemeCssVariable, string>> = {};
  if (theme.primaryColor) {
    vars["--svc-primary"] = theme.primaryColor;
    vars["--svc-primary-contrast"] = contrastTextColor(theme.primaryColor);
    vars["--svc-primary-soft"] = "color-mix(in srgb, var(--svc-primary) 14%, transparent)";
  }
  if (theme.borderRadius !== undefined) vars["--svc-radius"] = String(theme.borderRadius);
  if (theme.font) vars["--svc-font"] = theme.font;
  if (theme.analyticsChat?.backgroundColor) vars["--svc-chat-background"] = theme.analyticsChat.backgroundColor;
  if (theme.analyticsChat?.chatInput?.backgroundColor) vars["--svc-chat-input-background"] = theme.analyticsChat.chatInput.backgroundColor;
  if (theme.analyticsChat?.chatInput?.borderColor) vars["--svc-chat-input-border"] = theme.analyticsChat.chatInput.borderColor;
  if (theme.chat?.inputColor) vars["--svc-chat-input-color"] = theme.chat.inputColor;
  return vars;
}

/** Minimal style target; `document.documentElement` satisfies it. */
export interface StyleTarget {
  style: { setProperty(name: string, value: string): void; removeProperty(name: string): string };
}

/**
 * Sanitises `theme` and writes it to `root` as custom properties, removing those the new
 * theme leaves out (a theme replaces the previous one). Returns the refused fields.
 */
export function applyEmbedTheme(root: StyleTarget, theme: unknown): SanitizedEmbedTheme {
  const sanitized = sanitizeEmbedTheme(theme);
  const vars = embedThemeToCssVariables(sanitized.theme);
  for (const name of THEME_CSS_VARIABLES) {
    const value = vars[name];
    if (value === undefined) root.style.removeProperty(name);
    else root.style.setProperty(name, value);
  }
  return sanitized;
}
