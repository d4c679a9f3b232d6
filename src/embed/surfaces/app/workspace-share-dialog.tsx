/** The share dialog: read access for everyone of the tenant or for some of its groups. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { WorkspaceItem } from "../../../schema/workspace";
import { useApp, messageOf } from "./app-context";
import { Dialog } from "./dialog";
import { useWorkspaceText } from "./workspace-text";
import { appQueries } from "./app-queries";

export function ShareDialog(props: {
  /** What is shared: a folder, workbook or report, by id, with its name for the title. */
  item: { type: WorkspaceItem["type"]; id: number; name: string };
  onClose(): void;
}) {
  const { api, notify, me } = useApp();
  const { tx } = useWorkspaceText();
  const type = props.item.type === "FOLDER" ? "folder" : props.item.type === "WORKBOOK" ? "workbook" : "report";
  const shares = useQuery(appQueries.shares(api, type, props.item.id));
  const [busy, setBusy] = useState(false);
  const current = shares.data?.shared ?? [];
  const has = (k: string) => current.some((s) => (s.kind === "all_embed_users" ? k === "all" : k === `group:${s.name}`));
  const toggle = async (k: string) => {
    const next = has(k)
      ? current.filter((s) => (s.kind === "all_embed_users" ? k !== "all" : k !== `group:${s.name}`))
      : [...current, k === "all" ? { kind: "all_embed_users" as const } : { kind: "embed_group" as const, name: k.slice(6) }];
    setBusy(true);
    try {
      await api.setShares(type, props.item.id, next);
      await shares.refetch();
      notify("ok", tx("wsSharingUpdated"));
    } catch (error) {
      notify("error", tx("wsNotShared", { error: messageOf(error) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={tx("wsShareNamed", { name: props.item.name })} onClose={props.onClose}>
      <p className="svc-app-muted">{me.embedTenant ? tx("wsShareHintIn", { tenant: me.embedTenant }) : tx("wsShareHint")}</p>
      {shares.isPending ? (
        <p aria-busy="true">{tx("wsLoading")}</p>
      ) : shares.isError ? (
        <p className="svc-app-error" role="alert">
          {messageOf(shares.error)}
        </p>
      ) : (
        <ul className="svc-app-share-list" data-testid="share-list">
          <li>
            <label>
              <input type="checkbox" checked={has("all")} disabled={busy} onChange={() => void toggle("all")} data-testid="share-all" />{" "}
              {tx("wsEveryoneIn", { tenant: me.embedTenant ?? "" })}
            </label>
          </li>
          {shares.data.available.map((g) => (
            <li key={g.name}>
              <label>
                <input type="checkbox" checked={has(`group:${g.name}`)} disabled={busy} onChange={() => void toggle(`group:${g.name}`)} />{" "}
                {g.displayName ?? g.name}
              </label>
            </li>
          ))}
        </ul>
      )}
      <div className="svc-app-dialog-actions">
        <button type="button" className="svc-button is-primary" onClick={props.onClose}>
          {tx("wsDone")}
        </button>
      </div>
    </Dialog>
  );
}
