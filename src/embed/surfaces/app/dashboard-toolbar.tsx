/** The dashboard editor's toolbar: add a widget, undo/redo, the draft's save status, preview and publish. */
import { useRef } from "react";
import type { DashboardWidgetType } from "../../../schema/dashboard";
import { RedoIcon, UndoIcon } from "./app-icons";
import { useAppText } from "./app-messages";
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
  const t = useAppText();
  return (
    <div className="svc-app-toolbar svc-app-editor-toolbar" data-testid="editor-toolbar">
      {props.editing ? <AddWidget onAdd={props.onAdd} /> : null}
      {props.canEdit ? (
        <>
          <button
            type="button"
            className="svc-icon-button"
            aria-label={t("undo")}
            title={t("dashUndoHint")}
            aria-keyshortcuts="Control+Z Meta+Z"
            disabled={!props.canUndo}
            onClick={props.onUndo}
            data-testid="undo"
          >
            <UndoIcon />
          </button>
          <button
            type="button"
            className="svc-icon-button"
            aria-label={t("dashRedo")}
            title={t("dashRedoHint")}
            aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
            disabled={!props.canRedo}
            onClick={props.onRedo}
            data-testid="redo"
          >
            <RedoIcon />
          </button>
          <span className={`svc-app-save is-${props.save.status}`} role="status" data-testid="draft-status" title={props.save.message}>
            {t(props.save.status === "saving" ? "dashSaving" : props.save.status === "error" ? "dashNotSaved" : "dashDraftSaved")}
          </span>
          <button type="button" className="svc-button" aria-pressed={props.preview} onClick={props.onPreview} data-testid="preview">
            {t(props.preview ? "dashEdit" : "dashPreview")}
          </button>
          <button type="button" className="svc-button is-primary" disabled={props.publishing} onClick={props.onPublish} data-testid="publish">
            {t(props.publishing ? "dashPublishing" : "dashPublish")}
          </button>
        </>
      ) : (
        <span className="svc-app-muted">{t("dashReadOnly")}</span>
      )}
    </div>
  );
}

/** The add-widget buttons; at phone width (app-surface.css) they fold into a menu. */
function AddWidget(props: { onAdd(type: DashboardWidgetType): void }) {
  const t = useAppText();
  const menu = useRef<HTMLDetailsElement>(null);
  return (
    <>
      <div className="svc-app-add" role="group" aria-label={t("dashAddWidget")}>
        {WIDGET_TYPES.map((type) => (
          <button key={type} type="button" className="svc-button is-small" onClick={() => props.onAdd(type)} data-testid={`add-${type.toLowerCase()}`}>
            + {t(WIDGET_LABEL[type])}
          </button>
        ))}
      </div>
      <details className="svc-app-add-menu" ref={menu}>
        <summary className="svc-button" data-testid="add-menu" title={t("dashAddWidget")}>
          <span aria-hidden="true">+</span>
          <span className="svc-visually-hidden">{t("dashAddWidget")}</span>
        </summary>
        <div className="svc-app-add-menu-list" role="group" aria-label={t("dashAddWidget")}>
          {WIDGET_TYPES.map((type) => (
            <button
              key={type}
              type="button"
              className="svc-app-add-menu-item"
              onClick={() => {
                if (menu.current) menu.current.open = false;
                props.onAdd(type);
              }}
              data-testid={`add-menu-${type.toLowerCase()}`}
            >
              {t(WIDGET_LABEL[type])}
            </button>
          ))}
        </div>
      </details>
    </>
  );
}
