/**
 * `<svc-embed>` in a Vue 3 app: Vue treats the tag as a custom element (`isCustomElement`),
 * binds `src`, `origin`, `session` and `theme` as properties, listens with `@svc-*`, and calls
 * the element's methods through a template ref. In a single-file component the template is the
 * same; `isCustomElement` then goes in the Vue plugin's `template.compilerOptions`.
 */
import { createApp, defineComponent, ref } from "vue";
// In your app: import "svc/host/svc-embed"; and import type { SvcEmbedElement, SvcEmbedEventMap } from "svc/host";
import "../../../../../host/svc-embed";
import type { SvcEmbedElement, SvcEmbedEventMap } from "../../../../../host/svc-embed";
import { COMPLETED_ORDERS, demoEmbed, logLine, type ExampleEmbed } from "./demo-session";

const SalesDashboard = defineComponent({
  setup() {
    const embed = ref<SvcEmbedElement | null>(null);
    const target = ref<ExampleEmbed | null>(null);
    const theme = ref("light");
    const status = ref("Starting a session…");
    const result = ref("");
    const log = ref<string[]>([]);
    demoEmbed().then(
      (t) => (target.value = t),
      (error: unknown) => (status.value = `Could not start a session: ${String(error)}`),
    );
    return {
      embed,
      target,
      theme,
      status,
      result,
      log,
      record: (event: Event) => log.value.push(logLine(event)),
      onReady(event: SvcEmbedEventMap["svc-ready"]) {
        status.value = `Ready · ${event.detail.payload.mode} · tenant ${event.detail.payload.embedTenant ?? "none"}`;
      },
      onError(event: SvcEmbedEventMap["svc-error"]) {
        status.value = `Error: ${event.detail.payload.message}`;
      },
      async onlyCompleted() {
        const answer = await embed.value!.setFilter(COMPLETED_ORDERS);
        result.value = `set-filter: ${answer.status}`;
      },
    };
  },
  template: `
    <div class="bar">
      <span class="status" id="status" role="status">{{ status }}</span>
      <label>Theme <select id="theme" v-model="theme"><option>light</option><option>dark</option><option>auto</option></select></label>
      <button id="only-completed" type="button" :disabled="!target" @click="onlyCompleted">Only completed orders</button>
      <span class="result" id="result">{{ result }}</span>
    </div>
    <svc-embed
      v-if="target"
      ref="embed"
      label="Sales dashboard"
      locale="en-US"
      :src="target.src"
      :origin="target.origin"
      :session="target.session"
      :theme="theme"
      @svc-ready="record($event); onReady($event)"
      @svc-view="record"
      @svc-dashboard-loaded="record"
      @svc-filters-changed="record"
      @svc-download="record"
      @svc-resize="record"
      @svc-action-result="record"
      @svc-error="record($event); onError($event)"
    ></svc-embed>
    <details>
      <summary>Events</summary>
      <ol id="log"><li v-for="(line, i) in log" :key="i">{{ line }}</li></ol>
    </details>
  `,
});

const app = createApp(SalesDashboard);
// Leave <svc-embed> to the browser's custom element registry.
app.config.compilerOptions.isCustomElement = (tag) => tag === "svc-embed";
app.mount("#app");
