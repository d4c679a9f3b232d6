/**
 * Image and PDF exports. The dashboard image is rendered from the DOM (html-to-image);
 * a chart image comes from the chart itself (vega's view.toImageURL), see the chart widget.
 * Both libraries load on demand.
 */

/** PNG data URL of an element, on the given background so dark mode exports stay legible. */
export async function elementToPng(element: HTMLElement, backgroundColor: string): Promise<string> {
  const { toPng } = await import("html-to-image");
  return toPng(element, {
    backgroundColor,
    pixelRatio: Math.min(2, window.devicePixelRatio || 1),
    cacheBust: false,
    // Interactive chrome (export menus, retry buttons) does not belong in the picture.
    filter: (node) => !(node instanceof HTMLElement && node.dataset.exportIgnore === "true"),
  });
}

function imageSize(dataUrl: string): Promise<{ width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => reject(new Error("image could not be decoded"));
    image.src = dataUrl;
  });
}

/** A one-page PDF holding the PNG at its aspect ratio, titled. */
export async function pngToPdf(dataUrl: string, title: string): Promise<Blob> {
  const [{ jsPDF }, size] = await Promise.all([import("jspdf"), imageSize(dataUrl)]);
  const orientation = size.width >= size.height ? "landscape" : "portrait";
  const pdf = new jsPDF({ orientation, unit: "pt", format: [size.width / 2 + 48, size.height / 2 + 72] });
  pdf.setProperties({ title });
  pdf.setFontSize(14);
  pdf.text(title, 24, 32);
  pdf.addImage(dataUrl, "PNG", 24, 48, size.width / 2, size.height / 2);
  return pdf.output("blob");
}
