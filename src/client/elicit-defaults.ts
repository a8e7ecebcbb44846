/** @module An accepted form elicitation's answer completed with the requested schema's defaults for the fields it leaves out (SEP-1034). */
import type { JsonObject, ServerRequestHandler } from "./client-types.ts";

/**
 * The answer to a server's request, an accepted form-mode `elicitation/create` completed: each property of the
 * `requestedSchema` that has a `default` and is absent from `content` gets it (MCP 2025-11-25 and 2026-07-28
 * client/elicitation: "All primitive types support optional default values … Clients that support defaults
 * SHOULD pre-populate form fields with these values"; a field left out is one the user left as pre-populated).
 * Values the answer gives, `null` included, are kept; other methods, URL mode, declines and cancels pass as they are.
 * @param method - the server's request's method.
 * @param params - its params (`mode`, `requestedSchema`).
 * @param answer - what the handler answered.
 * @returns the answer, completed when it is an accepted form elicitation.
 */
export function withElicitationDefaults(method: string, params: JsonObject | undefined, answer: unknown): unknown {
  if (method !== "elicitation/create" || (params?.mode ?? "form") !== "form") return answer;
  if (typeof answer !== "object" || answer === null || (answer as JsonObject).action !== "accept") return answer;
  const properties = (params?.requestedSchema as JsonObject | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return answer;
  const given = (answer as JsonObject).content;
  const content: JsonObject = typeof given === "object" && given !== null ? { ...(given as JsonObject) } : {};
  let filled = false;
  for (const [name, schema] of Object.entries(properties as Record<string, unknown>)) {
    const fallback = (schema as JsonObject | null)?.default;
    if (fallback === undefined || Object.hasOwn(content, name)) continue;
    content[name] = structuredClone(fallback);
    filled = true;
  }
  return filled ? { ...(answer as JsonObject), content } : answer;
}

/**
 * A handler of the server's requests whose accepted form elicitations are completed ({@link withElicitationDefaults}).
 * @param handler - the caller's handler.
 * @returns the handler that completes its answers.
 */
export function completingDefaults(handler: ServerRequestHandler): ServerRequestHandler {
  return async (method, params, ctx) => withElicitationDefaults(method, params, await handler(method, params, ctx));
}
