/** The home's shelves: recent, favourites and shared with me, six cards each at most. */
import type { WorkspaceItem } from "../../../schema/workspace";
import { keyOf, TYPE_ICON } from "./workspace-item";
import { useWorkspaceText } from "./workspace-text";

export function HomeShelves(props: { recent: WorkspaceItem[]; favorites: WorkspaceItem[]; shared: WorkspaceItem[]; open: (i: WorkspaceItem) => void }) {
  const { tx, day } = useWorkspaceText();
  const shelves: [string, string, WorkspaceItem[], string][] = [
    ["recent", tx("recent"), props.recent, tx("recentEmpty")],
    ["favorites", tx("favorites"), props.favorites, tx("favoritesEmpty")],
    ["shared", tx("sharedWithMe"), props.shared, tx("sharedEmpty")],
  ];
  return (
    <div className="svc-app-shelves">
      {shelves.map(([id, label, list, empty]) => (
        <section key={id} className="svc-app-shelf" aria-label={label} data-testid={`home-${id}`}>
          <h2 className="svc-app-section-title">{label}</h2>
          {list.length === 0 ? (
            <p className="svc-app-muted svc-app-shelf-empty">{empty}</p>
          ) : (
            <ul className="svc-app-cards">
              {list.slice(0, 6).map((item) => (
                <li key={keyOf(item)}>
                  <button type="button" className="svc-app-card" onClick={() => props.open(item)} data-name={item.name}>
                    <span className="svc-app-row-icon" aria-hidden="true">
                      {TYPE_ICON[item.type]}
                    </span>
                    <span className="svc-app-card-name">{item.name}</span>
                    <span className="svc-app-muted">{day(item.updatedAt)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}
