/** @module The content capability registered with the core: resources, resource templates, prompts and completions, their capabilities and list changes. */
import { registerCapability } from "../server/register.ts";
import { completionComplete } from "./methods/completion-complete.ts";
import { promptsGet } from "./methods/prompts-get.ts";
import { promptsList } from "./methods/prompts-list.ts";
import { resourcesList } from "./methods/resources-list.ts";
import { resourcesRead } from "./methods/resources-read.ts";
import { resourcesSubscribe, resourcesUnsubscribe } from "./methods/resources-subscribe.ts";
import { resourcesTemplatesList } from "./methods/resources-templates-list.ts";
import { listenContent } from "./listen.ts";
import { subscriptionsOf } from "./subscriptions.ts";
import { installCatalog } from "./server-state.ts";

registerCapability({
  name: "content",
  methods: [
    resourcesList,
    resourcesTemplatesList,
    resourcesRead,
    resourcesSubscribe,
    resourcesUnsubscribe,
    promptsList,
    promptsGet,
    completionComplete,
  ],
  // Its catalog (registry.content), with the resources of apps and skills (registered before it).
  server: installCatalog,
  /**
   * Advertised when the server has them (MCP ServerCapabilities). `resources.subscribe`: any resource's changed()
   * reaches subscribers (a provider's when it says so); `listChanged` only when the resource list can change (a
   * template lists resources, or a provider's can change); the prompt list changes only when a provider's can.
   */
  capabilities: [
    {
      name: "resources",
      advertise: (r) =>
        r.content.hasResources
          ? {
              ...(r.content.subscribable ? { subscribe: true } : {}),
              ...(r.content.listChanges ? { listChanged: true } : {}),
            }
          : undefined,
    },
    {
      name: "prompts",
      advertise: (r) => (r.content.hasPrompts ? (r.content.promptListChanges ? { listChanged: true } : {}) : undefined),
    },
    { name: "completions", advertise: (r) => (r.content.hasCompletions ? {} : undefined) },
  ],
  // A resource or prompt list that can change is announced to the session (notifications/resources/list_changed, …).
  initialized(ctx) {
    const { registry } = ctx.connection;
    if (registry.content.listChanges) subscriptionsOf.get(ctx.connection).listChanges();
    if (registry.content.promptListChanges) subscriptionsOf.get(ctx.connection).promptChanges();
  },
  listen: listenContent,
  // The connection ended: its subscriptions stop, a provider's released upstream.
  closed: (connection) => subscriptionsOf.peek(connection)?.close(),
});
