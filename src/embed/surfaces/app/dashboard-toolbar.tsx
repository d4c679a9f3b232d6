/** The dashboard editor's toolbar: add a widget, undo/redo, the draft's save status, preview and publish. */
import type { DashboardWidgetType } from "../../../schema/dashboard";
import { RedoIcon, UndoIcon } from "./app-icons";
import { WIDGET_LABEL, WIDGET_TYPES } from "./dashboard-widgets";
import type { SaveState } from "./use-dashboard-draft";

export function DashboardToolbar(props: {
  canEdit: boolean;
  editing: boolean;
  canUndo: boolean;
  canRedo: boolean;
  save: SaveState;
  preview: boolean;
  publishing: boolean;
  onAdd(type: DashboardWidgetType): void;
  onUndo(): void;
  onRedo(): void;
  onPreview(): void;
  onPublish(): void;
}) {
  return (
    <div className="svc-app-toolbar">
      {props.editing ? (
        <div className="svc-app-add" role="group" aria-label="Add widget">
          {WIDGET_TYPES.map((type) => (
            <button key={type} type="button" className="svc-button is-small" onClick={() => props.onAdd(type)} data-testid={`add-${type.toLowerCase()}`}>
              + {WIDGET_LABEL[type]}
            </button>
          ))}
        </div>
      ) : null}
      <span className="svc-app-tabs-spacer" />
      {props.canEdit ? (
        <>
          <button type="button" className="svc-icon-button" aria-label="Undo" disabled={!props.canUndo} onClick={props.onUndo} data-testid="undo">
            <UndoIcon />
          </button>
          <button type="button" className="svc-icon-button" aria-label="Redo" disabled={!props.canRedo} onClick={props.onRedo} data-testid="redo">
            <RedoIcon />
          </button>
          <span className={`svc-app-save is-${props.save.status}`} role="status" data-testid="draft-status" title={props.save.message}>
            {props.save.status === "saving" ? "Saving…" : props.save.status === "error" ? "Not saved" : "Draft saved"}
          </span>
          <button type="button" className="svc-button" aria-pressed={props.preview} onClick={props.onPreview} data-testid="preview">
            {props.preview ? "Edit" : "Preview"}
          </button>
          <button type="button" className="svc-button is-primary" disabled={props.publishing} onClick={props.onPublish} data-testid="publish">
            {props.publishing ? "Publishing…" : "Publish"}
          </button>
        </>
      ) : (
        <span className="svc-app-muted">Read only</span>
      )}
    </div>
  );
}
