/** @module The registration list: every method, notification and capability this server has, in one table. */
import { methodTable, type CapabilitySpec, type MethodSpec, type MethodTable, type NotificationSpec } from "../method.ts";
import { initialize } from "./initialize.ts";
import { notificationsCancelled } from "./notifications-cancelled.ts";
import { ping } from "./ping.ts";
import { serverDiscover } from "./server-discover.ts";
import { toolsCall } from "./tools-call.ts";
import { toolsList } from "./tools-list.ts";

/** Server capabilities: advertised when `advertise` gives a value (MCP ServerCapabilities). */
export const CAPABILITIES: readonly CapabilitySpec[] = [{ name: "tools", advertise: () => ({}) }];

/** The notifications the server acts on; others are ignored. */
export const NOTIFICATIONS: readonly NotificationSpec[] = [notificationsCancelled];

/** Every method of the server. */
export const METHODS: readonly MethodSpec[] = [initialize, ping, serverDiscover, toolsList, toolsCall];

/** The server's table. */
export const TABLE: MethodTable = methodTable(METHODS, NOTIFICATIONS, CAPABILITIES);
