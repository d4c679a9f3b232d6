import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ACTION_TYPES, parseInboundAction, SVC_ACTION_TYPES } from "../../protocol";
import { createEmbedStore, type EmbedState } from "../state/embed-store";
import { createEmbedBridge } from "./embed-bridge";
import { actionMessage, createTestFrame, HOST, messageEvent } from "./test-frame";

const values = (state: EmbedState) => JSON.stringify(state, (_key, value: unknown) => (typeof value === "function" ? undefined : value));

const nearValidPayload = fc.oneof(
  fc.anything(),
  fc.record({ scheme: fc.oneof(fc.constantFrom("light", "dark", "auto", "sepia", ""), fc.anything()) }, { requiredKeys: [] }),
  fc.record({ locale: fc.oneof(fc.constantFrom("de", "es-AR", "zz", ""), fc.anything()) }, { requiredKeys: [] }),
  fc.record({ timezone: fc.oneof(fc.constantFrom("Europe/Oslo", "+01:00", "Mars/Base"), fc.anything()) }, { requiredKeys: [] }),
  fc.record({ path: fc.oneof(fc.constantFrom("/ok", "//evil", "javascript:alert(1)"), fc.anything()) }, { requiredKeys: [] }),
  fc.record(
    {
      filterUrlParameter: fc.oneof(
        fc.constantFrom('f_orders.status={"value":"x"}', 'f_orders.city={"value":1}', "f_orders.status={", "f_x=1"),
        fc.string(),
        fc.anything(),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    { primaryColor: fc.oneof(fc.string(), fc.anything()), borderRadius: fc.anything(), font: fc.anything(), chat: fc.anything() },
    { requiredKeys: [] },
  ),
);

const nearValidMessage = fc.record(
  {
    source: fc.oneof(fc.constant("svc-embed"), fc.constant("svc-embed "), fc.string(), fc.anything()),
    direction: fc.oneof(fc.constantFrom("action", "event", "Action"), fc.anything()),
    type: fc.oneof(fc.constantFrom(...SVC_ACTION_TYPES), fc.constantFrom("svc:action:", "svc:event:ready", "__proto__"), fc.string()),
    payload: nearValidPayload,
    timestamp: fc.oneof(fc.integer(), fc.double(), fc.anything()),
    requestId: fc.oneof(fc.string(), fc.anything()),
    surface: fc.anything(),
  },
  { requiredKeys: [] },
);

describe("createEmbedBridge receive path (fuzz)", () => {
  it("never throws, applies nothing invalid, and still applies a valid action afterwards", async () => {
    const frame = createTestFrame();
    const store = createEmbedStore();
    store.getState().registerFilterControls(["orders.status"]);
    const bridge = createEmbedBridge({ window: frame.win, surface: "dashboard", allowedOrigins: [HOST], store });

    const senders = [frame.parent, frame.sibling, null, frame.win];
    const origins = [HOST, "https://evil.example", "null", `${HOST}:444`, "http://host.example"];

    await fc.assert(
      fc.asyncProperty(
        fc.oneof(nearValidMessage, fc.anything(), fc.jsonValue()),
        fc.constantFrom(...senders),
        fc.constantFrom(...origins),
        async (data, source, origin) => {
          const before = values(store.getState());
          await expect(bridge.receive(messageEvent(source, origin, data))).resolves.toBeUndefined();
          const trusted = source === frame.parent && origin === HOST;
          if (!trusted || !parseInboundAction(data).ok) {
            expect(values(store.getState())).toBe(before);
          }
        },
      ),
      { numRuns: 3000 },
    );

    const total = Object.values(bridge.dropped).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(2000);
    store.getState().setColorScheme("light");
    await bridge.receive(messageEvent(frame.parent, HOST, actionMessage(ACTION_TYPES.setColorScheme, { scheme: "dark" })));
    expect(store.getState().colorScheme).toBe("dark");
  });
});
