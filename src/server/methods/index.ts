/** @module The registration list: every method, notification and capability this server has, in one table. */
import { type CapabilitySpec, type MethodSpec, type MethodTable, type NotificationSpec } from "../method.ts";
import { baseTable } from "../register.ts";
import { initialize } from "./initialize.ts";
import { notificationsCancelled } from "./notifications-cancelled.ts";
import { ping } from "./ping.ts";
import { serverDiscover } from "./server-discover.ts";
import { toolsCall } from "./tools-call.ts";
import { toolsList } from "./tools-list.ts";
import { resourcesList } from "./resources-list.ts";
import { resourcesTemplatesList } from "./resources-templates-list.ts";
import { resourcesRead } from "./resources-read.ts";
import { resourcesSubscribe, resourcesUnsubscribe } from "./resources-subscribe.ts";
import { subscriptionsListen } from "./subscriptions-listen.ts";
import { promptsList } from "./prompts-list.ts";
import { promptsGet } from "./prompts-get.ts";
import { completionComplete } from "./completion-complete.ts";
import { loggingSetLevel } from "./logging-set-level.ts";
import { SKILLS_METHODS } from "../../skills/methods.ts";

/**
 * Server capabilities: advertised when `advertise` gives a value (MCP ServerCapabilities), derived
 * from what the server has. `resources.subscribe`: any resource's changed() reaches subscribers (a
 * provider's when it says so); `listChanged` only when the resource list can change (a template lists
 * resources, or a provider's can change); the prompt list changes only when a provider's can. `logging`: tools may log (ctx.log).
 */
export const CAPABILITIES: readonly CapabilitySpec[] = [
  { name: "tools", advertise: () => ({}) },
  {
    name: "resources",
    advertise: (r) => (r.content.hasResources ? { ...(r.content.subscribable ? { subscribe: true } : {}), ...(r.content.listChanges ? { listChanged: true } : {}) } : undefined),
  },
  { name: "prompts", advertise: (r) => (r.content.hasPrompts ? (r.content.promptListChanges ? { listChanged: true } : {}) : undefined) },
  { name: "completions", advertise: (r) => (r.content.hasCompletions ? {} : undefined) },
  { name: "logging", advertise: (r) => (r.tools.size > 0 ? {} : undefined) },
];

/** The notifications the server acts on; others are ignored. */
export const NOTIFICATIONS: readonly NotificationSpec[] = [notificationsCancelled];

/** Every method of the server. */
export const METHODS: readonly MethodSpec[] = [
  initialize,
  ping,
  serverDiscover,
  toolsList,
  toolsCall,
  resourcesList,
  resourcesTemplatesList,
  resourcesRead,
  resourcesSubscribe,
  resourcesUnsubscribe,
  subscriptionsListen,
  promptsList,
  promptsGet,
  completionComplete,
  loggingSetLevel,
  ...SKILLS_METHODS,
];

/** The server's own table, before any capability registered (src/server/register.ts); new connections use currentTable(). */
export const TABLE: MethodTable = baseTable(METHODS, NOTIFICATIONS, CAPABILITIES);
