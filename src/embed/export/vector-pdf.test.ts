// @vitest-environment jsdom
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import * as vega from "vega";
import { compile } from "vega-lite";
import type { DashboardPdfModel } from "./pdf-document";
import { fontCovers } from "./pdf-fonts";
import { buildVectorPdf } from "./vector-pdf";

// svg2pdf.js names a UMD file as its "main", which Node loads as ESM (the package is "type":
// "module") and cannot run; the bundler takes its "module" build, and so does this test.
vi.mock("svg2pdf.js", () => import("../../../node_modules/svg2pdf.js/dist/svg2pdf.es.js" as string));

// jsdom lays nothing out: svg2pdf's text measuring (the browser's getBBox) gets a width from the text's length.
(SVGElement.prototype as unknown as { getBBox(): DOMRect }).getBBox = function (this: SVGElement) {
  return { x: 0, y: 0, width: (this.textContent ?? "").length * 6, height: 10 } as DOMRect;
};

const fontFile = (name: string) => readFileSync(join(process.cwd(), "src/embed/export/fonts", name)).toString("base64");
const fonts = { regular: fontFile("dejavu-sans.ttf"), bold: fontFile("dejavu-sans-bold.ttf") };

async function chartSvg(): Promise<string> {
  const spec = compile({
    width: 400,
    height: 200,
    data: {
      values: [
        { land: "Österreich", umsatz: 120 },
        { land: "Spanien", umsatz: 80 },
      ],
    },
    mark: "bar",
    encoding: { x: { field: "land", type: "nominal", title: "Land" }, y: { field: "umsatz", type: "quantitative", title: "Umsatz (€)" } },
  } as never).spec;
  return new vega.View(vega.parse(spec), { renderer: "none" }).toSVG();
}

async function textOf(bytes: ArrayBuffer): Promise<string[]> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const document = await pdfjs.getDocument({ data: new Uint8Array(bytes.slice(0)), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
  }
  return pages;
}

function model(rows: number): DashboardPdfModel {
  return {
    title: "Verkaufsübersicht",
    description: "Umsätze für Größen & Mañana",
    filtersLine: "Filter: Status: abgeschlossen",
    sections: [
      {
        widgetId: "k1",
        title: "Umsatz",
        subtitle: null,
        body: { kind: "figure", value: "4.070.301 €", change: "12,5 %", trend: "up", note: "gegenüber 3.617.000 €" },
      },
      { widgetId: "k2", title: "Bestellungen", subtitle: null, body: { kind: "figure", value: "1.204", change: null, trend: "flat", note: null } },
      { widgetId: "c1", title: "Umsatz nach Land", subtitle: "Q2 2025 gegenüber Q2 2024", body: { kind: "chart", svg: "" } },
      {
        widgetId: "t1",
        title: "Städte",
        subtitle: null,
        body: {
          kind: "table",
          columns: [
            { title: "Stadt", numeric: false },
            { title: "Umsatz", numeric: true },
          ],
          rows: Array.from({ length: rows }, (_, i) => [i === 0 ? "München" : `Stadt ${i}`, `${i},00 €`]),
        },
      },
      { widgetId: "x1", title: null, subtitle: null, body: { kind: "text", paragraphs: ["Notiz <b>nicht fett</b>"] } },
    ],
  };
}

describe("buildVectorPdf", () => {
  it("draws titles, filters, figures, chart text and every table row as text", async () => {
    const m = model(120);
    (m.sections[2]!.body as { svg: string }).svg = await chartSvg();
    const bytes = await buildVectorPdf(m, fonts);
    const pages = await textOf(bytes);
    const all = pages.join("\n");
    for (const text of [
      "Verkaufsübersicht",
      "Umsätze für Größen & Mañana",
      "Filter: Status: abgeschlossen",
      "4.070.301 €",
      "Umsatz nach Land",
      "Österreich",
      "München",
      "Stadt 119",
      "Notiz <b>nicht fett</b>",
    ])
      expect(all).toContain(text);
    // The table's header is repeated on the pages it runs on to.
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.at(-1)).toContain("Stadt");
    expect(bytes.byteLength).toBeLessThan(150_000);
  });
});

describe("chart text", () => {
  it("ends an end-anchored label where the drawing puts it, in the regular weight whatever was drawn before", async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><g transform="translate(100,0)">' +
      '<text text-anchor="end" transform="translate(-6,20)" font-family="Arial" font-size="11px">Elektronik</text>' +
      '<text text-anchor="middle" transform="translate(20,40)" font-family="Arial" font-size="11px" font-weight="bold">Umsatz</text></g></svg>';
    const bytes = await buildVectorPdf(
      {
        title: "Titel",
        description: null,
        filtersLine: "Filter",
        sections: [{ widgetId: "c", title: "Diagramm", subtitle: null, body: { kind: "chart", svg } }],
      },
      fonts,
      undefined,
      () => null,
    );
    const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const document = await pdfjs.getDocument({ data: new Uint8Array(bytes) }).promise;
    const items = (await (await document.getPage(1)).getTextContent()).items.filter((i) => "str" in i && i.str) as {
      str: string;
      fontName: string;
      transform: number[];
      width: number;
    }[];
    const at = (text: string) => items.find((i) => i.str === text)!;
    // The drawing starts at the page's margin (36 pt); the label ends 6 pt before x = 100.
    expect(at("Elektronik").transform[4]! + at("Elektronik").width).toBeCloseTo(36 + 100 - 6, 0);
    expect(at("Elektronik").fontName).toBe(at("Filter").fontName);
    expect(at("Umsatz").fontName).toBe(at("Titel").fontName);
    expect(at("Umsatz").transform[4]! + at("Umsatz").width / 2).toBeCloseTo(36 + 120, 0);
  });
});

describe("fontCovers", () => {
  it("knows the scripts of the shipped font and not the others", () => {
    expect(fontCovers(["Größe", "Mañana ¿qué?", "Tiếng Việt", "Привет", "≥ 5 − 3 €"])).toBe(true);
    expect(fontCovers(["売上"])).toBe(false);
  });
});
