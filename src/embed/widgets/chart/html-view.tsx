/**
 * HTML report in `<iframe sandbox="">`: no scripts, an opaque origin, so it can never reach
 * the embed's token, storage or DOM. Placeholders are filled and escaped before it goes in.
 */
import { useMemo } from "react";
import { useChartPalette } from "./use-chart-palette";
import { htmlReportDocument } from "./html-template";
import "./html-view.css";

export function HtmlView(props: { body: string; title: string }) {
  const palette = useChartPalette();
  const srcDoc = useMemo(() => htmlReportDocument(props.body, { scheme: palette.scheme, font: palette.font, text: palette.text }), [props.body, palette]);
  return <iframe className="svc-html-frame" sandbox="" srcDoc={srcDoc} title={props.title} referrerPolicy="no-referrer" />;
}
