/** @module A request's task (`ctx.taskId`, `ctx.startTask()`): the tasks capability adds them to the core's RequestContext (its interface augmented, its prototype given the method). */
import { RequestContext } from "../server/context.ts";

declare module "../server/context.ts" {
  interface RequestContext {
    /** The task this call runs as (set by the tasks capability, src/tasks/run.ts); undefined otherwise. */
    taskId: string | undefined;
    /** What {@link startTask} does for this request (set for a `deferTask` tool, src/tasks/call.ts). */
    taskStarter: (() => Promise<void>) | undefined;
    /** See ToolContext.startTask: runs the call as a task from here on (a no-op when it cannot be one or already is). */
    startTask(): Promise<void>;
  }
}

Object.defineProperty(RequestContext.prototype, "startTask", {
  configurable: true,
  enumerable: false,
  writable: true,
  value(this: RequestContext): Promise<void> {
    return this.taskStarter?.() ?? Promise.resolve();
  },
});
