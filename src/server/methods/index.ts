/** @module The core's own methods (lifecycle, ping, discovery, listen streams, logging, cancellation); each capability adds its own through src/server/register.ts. */
import type { CapabilitySpec, MethodSpec, MethodTable, NotificationSpec } from "../method.ts";
import { baseTable, logsRegistered } from "../register.ts";
import { initialize } from "./initialize.ts";
import { notificationsCancelled } from "./notifications-cancelled.ts";
import { ping } from "./ping.ts";
import { serverDiscover } from "./server-discover.ts";
import { subscriptionsListen } from "./subscriptions-listen.ts";
import { loggingSetLevel } from "./logging-set-level.ts";

/**
 * The core's server capabilities: advertised when `advertise` gives a value (MCP ServerCapabilities). `logging`:
 * something the server serves may log (ctx.log), as a registration's `logs` says. The capabilities' own (tools,
 * resources, prompts, completions, …) come from their registrations.
 */
export const CAPABILITIES: readonly CapabilitySpec[] = [
  { name: "logging", advertise: (r) => (logsRegistered(r) ? {} : undefined) },
];

/** The notifications the server acts on; others are ignored. */
export const NOTIFICATIONS: readonly NotificationSpec[] = [notificationsCancelled];

/** The core's methods. */
export const METHODS: readonly MethodSpec[] = [initialize, ping, serverDiscover, subscriptionsListen, loggingSetLevel];

/** The core's own table, before any capability registered (src/server/register.ts); new connections use currentTable(). */
export const TABLE: MethodTable = baseTable(METHODS, NOTIFICATIONS, CAPABILITIES);
