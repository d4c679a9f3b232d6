/** The answer to a widget click is shared by the surfaces that show widgets (grid/widget-click-handler.ts). */
export { createWidgetClickHandler } from "../../grid/widget-click-handler";
