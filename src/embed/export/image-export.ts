/**
 * Image and PDF exports. The dashboard image is rendered from the DOM (html-to-image);
 * a chart image comes from the chart itself (vega's view.toImageURL), see the chart widget.
 * Both libraries load on demand.
 */

/**
 * PNG data URL of an element, on the given background so dark mode exports stay legible.
 * HTML reports are drawn in for the time of the capture (see `withHtmlReportsDrawn`).
 */
export async function elementToPng(element: HTMLElement, backgroundColor: string): Promise<string> {
  const { toPng } = await import("html-to-image");
  const pixelRatio = Math.min(2, window.devicePixelRatio || 1);
  // A picture has nothing to scroll: scroll bars (tables, a long AI answer) are not drawn in it.
  element.dataset.exporting = "true";
  try {
    return await withHtmlReportsDrawn(element, pixelRatio, () =>
      toPng(element, {
        backgroundColor,
        pixelRatio,
        cacheBust: false,
        // Interactive chrome (export menus, retry buttons) does not belong in the picture.
        filter: (node) => !(node instanceof HTMLElement && node.dataset.exportIgnore === "true"),
      }),
    );
  } finally {
    delete element.dataset.exporting;
  }
}

/**
 * HTML reports sit in `<iframe sandbox="">` with an opaque origin, which the browser renders
 * out of process: a DOM capture cannot read it and gets an empty box. For the capture each
 * one is swapped for a picture of the same document (an SVG foreignObject image: drawn in
 * this process, and an image runs no scripts and loads nothing), then swapped back.
 */
export async function withHtmlReportsDrawn<T>(element: HTMLElement, pixelRatio: number, capture: () => Promise<T>): Promise<T> {
  const frames = [...element.querySelectorAll<HTMLIFrameElement>("iframe.svc-html-frame[srcdoc]")];
  const swaps = await Promise.all(
    frames.map(async (frame) => {
      const { width, height } = frame.getBoundingClientRect();
      if (width < 1 || height < 1) return null;
      const image = document.createElement("img");
      image.className = frame.className;
      image.alt = frame.title;
      image.width = Math.round(width);
      image.height = Math.round(height);
      image.src = await htmlDocumentToPng(frame.getAttribute("srcdoc") ?? "", width, height, pixelRatio);
      await image.decode().catch(() => undefined);
      frame.after(image);
      const display = frame.style.display;
      frame.style.display = "none";
      return () => {
        image.remove();
        frame.style.display = display;
      };
    }),
  );
  try {
    return await capture();
  } finally {
    for (const restore of swaps) restore?.();
  }
}

/** PNG data URL of an HTML document (a report's srcdoc) laid out at `width` × `height`. */
export async function htmlDocumentToPng(html: string, width: number, height: number, pixelRatio: number): Promise<string> {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  // Nothing active or external goes into the picture (an image would not run or load it anyway).
  parsed.querySelectorAll("script, meta, link, iframe, frame, object, embed, base").forEach((node) => node.remove());
  const root = parsed.createElement("div");
  root.className = "svc-html-root";
  root.setAttribute("style", `width:${width}px;height:${height}px;overflow:hidden`);
  for (const style of [...parsed.querySelectorAll("style")]) root.append(style);
  root.append(...parsed.body.childNodes);
  const xhtml = new XMLSerializer().serializeToString(root);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><foreignObject x="0" y="0" width="100%" height="100%">${xhtml}</foreignObject></svg>`;
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * pixelRatio);
  canvas.height = Math.round(height * pixelRatio);
  const context = canvas.getContext("2d");
  if (!context) throw new Error("no 2D canvas for the HTML report");
  context.scale(pixelRatio, pixelRatio);
  context.drawImage(image, 0, 0, width, height);
  return canvas.toDataURL("image/png");
}

function imageSize(dataUrl: string): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => reject(new Error("image could not be decoded"));
    image.src = dataUrl;
  });
}

/** The picture as JPEG (a tenth of the PNG's bytes for a dashboard; its background is already painted). */
async function asJpeg(dataUrl: string): Promise<string> {
  const image = new Image();
  image.src = dataUrl;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  if (!context) return dataUrl;
  context.drawImage(image, 0, 0);
  return canvas.toDataURL("image/jpeg", 0.85);
}

/** A one-page PDF holding the picture (as JPEG) at its aspect ratio, titled. */
export async function pngToPdf(png: string, title: string): Promise<Blob> {
  const [{ jsPDF }, size, dataUrl] = await Promise.all([import("jspdf"), imageSize(png), asJpeg(png)]);
  const orientation = size.width >= size.height ? "landscape" : "portrait";
  const pdf = new jsPDF({ orientation, unit: "pt", format: [size.width / 2 + 48, size.height / 2 + 72] });
  pdf.setProperties({ title });
  pdf.setFontSize(14);
  pdf.text(title, 24, 32);
  pdf.addImage(dataUrl, dataUrl.startsWith("data:image/jpeg") ? "JPEG" : "PNG", 24, 48, size.width / 2, size.height / 2);
  return pdf.output("blob");
}
