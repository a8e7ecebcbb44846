// The 200 tools of the cold-start benchmark's servers (many-tools.ts, many-tools-lazy.ts): 198 generated tools with realistic schemas, plus add_numbers and echo.
import * as v from "valibot";
import { tool, type Tool } from "mcpbin";

const KINDS = [
  "issue",
  "ticket",
  "page",
  "record",
  "file",
  "event",
  "invoice",
  "contact",
  "task",
  "note",
  "build",
] as const;
const VERBS = ["get", "list", "create", "update", "delete", "search", "archive", "restore", "export"] as const;

function inputOf(kind: string) {
  return v.object({
    id: v.pipe(v.string(), v.minLength(1), v.maxLength(128), v.description(`The ${kind} id`)),
    query: v.optional(v.pipe(v.string(), v.maxLength(500)), ""),
    limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
    sort: v.optional(v.picklist(["asc", "desc"]), "desc"),
    tags: v.optional(v.array(v.string()), []),
    since: v.optional(v.pipe(v.string(), v.isoTimestamp())),
    filter: v.optional(
      v.object({
        field: v.string(),
        op: v.picklist(["eq", "ne", "lt", "gt"]),
        value: v.union([v.string(), v.number(), v.boolean()]),
      }),
    ),
  });
}

function generated(i: number, lazy: boolean): Tool {
  const kind = KINDS[i % KINDS.length]!;
  const verb = VERBS[Math.floor(i / KINDS.length) % VERBS.length]!;
  return tool({
    name: `${verb}_${kind}_${i}`,
    title: `${verb} ${kind} #${i}`,
    description: `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${kind} by id, with optional search, paging, sorting and a filter (generated tool ${i}).`,
    // Lazy: the schema is built on the tool's first call, not at start (its JSON Schema is recorded at build time).
    input: lazy ? () => inputOf(kind) : inputOf(kind),
    annotations: { readOnlyHint: verb === "get" || verb === "list" || verb === "search" },
    run: ({ id, limit, sort }) => ({ id, kind, verb, limit, sort }),
  });
}

/**
 * The 200 tools.
 * @param lazy - give each generated tool's input schema as a function (built on first call).
 */
export function manyTools(lazy: boolean): Tool[] {
  const addNumbers = tool({
    name: "add_numbers",
    description: "Add two numbers",
    input: v.object({ x: v.number(), y: v.number() }),
    run: ({ x, y }) => x + y,
  });
  const echo = tool({
    name: "echo",
    description: "Echo text",
    input: v.object({ text: v.string() }),
    run: ({ text }) => text,
  });
  return [addNumbers, echo, ...Array.from({ length: 198 }, (_, i) => generated(i, lazy))];
}
