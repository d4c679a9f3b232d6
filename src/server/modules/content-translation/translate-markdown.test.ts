import { describe, expect, it } from "vitest";
import type { Dashboard } from "../../../schema/dashboard";
import { loadDataModel } from "../../semantic/data-model";
import { demoModelFiles } from "../../demo/seed";
import { contentSources } from "./missing";
import { markdownWithoutHtml, translateDashboard } from "./translate-dashboard";

// A TEXT widget's markdown is translated as a whole through `texts` (docs/translation.md); the
// translation is markdown whose HTML shows as written.

const intro = "### Welcome\nRevenue **for your organisation**.";
const dashboard = {
  id: 1,
  title: "Sales",
  config: {
    widgets: [
      { id: "intro", type: "TEXT", x: 0, y: 0, w: 4, h: 3, config: { markdown: intro } },
      { id: "other", type: "TEXT", x: 4, y: 0, w: 4, h: 3, config: { markdown: "Untranslated *text*" } },
      {
        id: "tabs",
        type: "TABS_CONTAINER",
        x: 0,
        y: 3,
        w: 12,
        h: 6,
        config: { tabs: [{ id: "a", title: "A", widgets: [{ id: "inner", type: "TEXT", x: 0, y: 0, w: 4, h: 3, config: { markdown: intro } }] }] },
      },
    ],
  },
  reportSnapshots: [],
} as unknown as Dashboard;

const markdownOf = (d: Dashboard, id: string): unknown => {
  const all = [
    ...(d.config.widgets ?? []),
    ...((d.config.widgets ?? [])[2]!.config as { tabs: { widgets: { id: string; config: unknown }[] }[] }).tabs[0]!.widgets,
  ];
  return (all.find((w) => w.id === id)!.config as { markdown?: unknown }).markdown;
};

describe("a TEXT widget's markdown", () => {
  it("is translated as a whole, also in a tab; markdown without an entry stays", () => {
    const translated = translateDashboard(dashboard, { texts: { [intro]: "### Willkommen\nUmsatz **für Ihre Organisation**." } });
    expect(markdownOf(translated, "intro")).toBe("### Willkommen\nUmsatz **für Ihre Organisation**.");
    expect(markdownOf(translated, "inner")).toBe("### Willkommen\nUmsatz **für Ihre Organisation**.");
    expect(markdownOf(translated, "other")).toBe("Untranslated *text*");
  });

  it("brings no HTML: tags and entities of a translation show as written", () => {
    const translated = translateDashboard(dashboard, { texts: { [intro]: '<img src=x onerror="alert(1)"> **fett** &lt;b&gt; > Zitat' } });
    expect(markdownOf(translated, "intro")).toBe('&lt;img src=x onerror="alert(1)"> **fett** &amp;lt;b&amp;gt; > Zitat');
    expect(markdownWithoutHtml("a < b && c")).toBe("a &lt; b &amp;&amp; c");
  });

  it("is listed by the missing report as a text of its dashboard", () => {
    const sources = contentSources([{ key: "sales", config: dashboard.config, reports: [] }], null, null);
    expect(sources.texts.get(intro)).toEqual(new Set(["dashboard:sales"]));
    expect(sources.texts.has("Untranslated *text*")).toBe(true);
  });
});

describe("the model's texts to translate", () => {
  it("holds each public view's title beside its members' titles", () => {
    const model = loadDataModel(demoModelFiles());
    const sources = contentSources([], model, null);
    expect(sources.texts.get("Sales")).toEqual(new Set(["model"]));
    expect(sources.texts.get("Customers")).toEqual(new Set(["model"]));
    expect(sources.members.get("sales.revenue")?.title).toBe("Revenue");
  });
});
