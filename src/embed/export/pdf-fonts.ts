/**
 * The font of the vector PDF: DejaVu Sans (regular and bold), subset to Latin, Greek and
 * Cyrillic and shipped in the repository (fonts/LICENSE.txt). jsPDF's built-in fonts know
 * WinAnsi only; an embedded TrueType font draws any text it has glyphs for, and jsPDF writes
 * only the glyphs a document uses into the file. decisions.md "PDF export: vector pages and
 * their font".
 */
import boldUrl from "./fonts/dejavu-sans-bold.ttf?url";
import regularUrl from "./fonts/dejavu-sans.ttf?url";

/** The family name the PDF registers the font under (also what chart text is drawn in). */
export const PDF_FONT_FAMILY = "DejaVuSans";

/** The TrueType files as base64, as jsPDF's virtual file system takes them. */
export interface PdfFontFiles {
  regular: string;
  bold: string;
}

/**
 * The code points the shipped subset has glyphs for (the ranges of its `fontTools.subset`
 * command in fonts/LICENSE.txt), and tab and line breaks, which text layout turns into spaces.
 */
const COVERED: readonly (readonly [number, number])[] = [
  [0x09, 0x0a],
  [0x0d, 0x0d],
  [0x20, 0x7e],
  [0xa0, 0x24f],
  [0x259, 0x259],
  [0x2bb, 0x2bc],
  [0x2c6, 0x2dd],
  [0x300, 0x36f],
  [0x370, 0x3ff],
  [0x400, 0x4ff],
  [0x1e00, 0x1eff],
  [0x2000, 0x206f],
  [0x20a0, 0x20bf],
  [0x2100, 0x215f],
  [0x2190, 0x21ff],
  [0x2212, 0x2213],
  [0x2215, 0x2215],
  [0x2219, 0x221a],
  [0x221e, 0x221e],
  [0x2248, 0x2248],
  [0x2260, 0x2265],
  [0x25a0, 0x25ff],
  [0xfffd, 0xfffd],
];

function covered(codePoint: number): boolean {
  return COVERED.some(([from, to]) => codePoint >= from && codePoint <= to);
}

/** True when the font draws every character of every text (false: a script it lacks, such as Japanese). */
export function fontCovers(texts: readonly string[]): boolean {
  return texts.every((text) => {
    for (const char of text.normalize("NFC")) if (!covered(char.codePointAt(0)!)) return false;
    return true;
  });
}

function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

let loading: Promise<PdfFontFiles> | null = null;

/** Fetches the two font files (about 115 kB each, once per page) from the embed's own assets. */
export function loadPdfFonts(): Promise<PdfFontFiles> {
  loading ??= (async () => {
    const [regular, bold] = await Promise.all(
      [regularUrl, boldUrl].map(async (url) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`the PDF font could not be loaded (${response.status})`);
        return toBase64(await response.arrayBuffer());
      }),
    );
    return { regular: regular!, bold: bold! };
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
