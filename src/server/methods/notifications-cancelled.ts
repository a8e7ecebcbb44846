/** @module notifications/cancelled from the client: the named request in flight is aborted and gets no response (MCP basic/utilities/cancellation). */
import type { NotificationSpec } from "../method.ts";

/** The `notifications/cancelled` entry. */
export const notificationsCancelled: NotificationSpec = {
  name: "notifications/cancelled",
  handle(params, _connection, calls) {
    if (params === undefined) return;
    calls.cancel(params.requestId, typeof params.reason === "string" ? params.reason : undefined);
  },
};
