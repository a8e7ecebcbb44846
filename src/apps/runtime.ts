/// <reference lib="dom" />
/**
 * @module The no-script view runtime (browser code; mcpbin inlines it into a view whose HTML uses `data-mcp-*`
 * attributes): binds `data-mcp-input` elements to the arguments of the `data-mcp-tool` they sit in or on, calls
 * the tool again (debounced) when an input changes, fills `data-mcp-output` elements from results, applies the
 * host's theme and style variables, and sends `ui/update-model-context` with the inputs. Talks to the host
 * through the official `App` class of `@modelcontextprotocol/ext-apps`.
 */
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps";

/** Milliseconds an input must stay unchanged before its tool is called again (shinymcp's default). */
const DEBOUNCE_MS = 250;

type Result = {
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text?: string }[];
  isError?: boolean;
};

const app = new App({ name: document.title || "mcpbin-view", version: "1.0.0" }, {}, { autoResize: true });

/** The tool an element feeds: its own `data-mcp-tool`, or the nearest ancestor's. */
function toolOf(el: Element): string | undefined {
  return el.closest("[data-mcp-tool]")?.getAttribute("data-mcp-tool") ?? undefined;
}

function inputs(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>("[data-mcp-input]")];
}

function readValue(el: HTMLElement): unknown {
  if (el instanceof HTMLInputElement) {
    if (el.type === "checkbox") return el.checked;
    if (el.type === "number" || el.type === "range") return el.value === "" ? undefined : Number(el.value);
    return el.value;
  }
  if (el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) return el.value;
  return el.textContent ?? "";
}

function writeValue(el: HTMLElement, value: unknown): void {
  if (el instanceof HTMLInputElement && el.type === "checkbox") el.checked = Boolean(value);
  else if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement)
    el.value = value === undefined || value === null ? "" : String(value);
}

/** The arguments of `tool`: every input that feeds it, by its `data-mcp-input` name. */
function argumentsOf(tool: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const el of inputs()) {
    if (toolOf(el) !== tool) continue;
    const value = readValue(el);
    if (value !== undefined) args[el.getAttribute("data-mcp-input")!] = value;
  }
  return args;
}

function pick(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split("."))
    v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** Fills outputs from a result: `data-mcp-output="field.path"` from `structuredContent`, empty = the result's text. */
function render(result: Result, tool?: string): void {
  const text = (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");
  for (const el of document.querySelectorAll<HTMLElement>("[data-mcp-output]")) {
    const only = el.getAttribute("data-mcp-from");
    if (only && tool && only !== tool) continue;
    const path = el.getAttribute("data-mcp-output") ?? "";
    const value = path === "" ? text : pick(result.structuredContent, path);
    if (value === undefined) continue;
    el.textContent = typeof value === "string" ? value : JSON.stringify(value);
    el.toggleAttribute("data-mcp-error", result.isError === true);
  }
}

async function call(tool: string): Promise<Result> {
  document.documentElement.setAttribute("data-mcp-busy", tool);
  try {
    const result = (await app.callServerTool({ name: tool, arguments: argumentsOf(tool) })) as Result;
    render(result, tool);
    return result;
  } catch (e) {
    const result: Result = { isError: true, content: [{ type: "text", text: String((e as Error)?.message ?? e) }] };
    render(result, tool);
    return result;
  } finally {
    document.documentElement.removeAttribute("data-mcp-busy");
  }
}

let contextTimer: ReturnType<typeof setTimeout> | undefined;
/** Tells the host what the inputs hold now (`ui/update-model-context`, last wins), debounced. */
function shareInputs(): void {
  clearTimeout(contextTimer);
  contextTimer = setTimeout(() => {
    const values: Record<string, unknown> = {};
    for (const el of inputs()) values[el.getAttribute("data-mcp-input")!] = readValue(el);
    app.updateModelContext({ structuredContent: { inputs: values } }).catch(() => {});
  }, DEBOUNCE_MS);
}

const timers = new Map<string, ReturnType<typeof setTimeout>>();
function onInput(ev: Event): void {
  const el = ev.target instanceof HTMLElement ? ev.target.closest<HTMLElement>("[data-mcp-input]") : null;
  if (!el) return;
  shareInputs();
  const tool = toolOf(el);
  if (!tool || el.closest("[data-mcp-trigger=manual]")) return;
  clearTimeout(timers.get(tool));
  timers.set(
    tool,
    setTimeout(() => void call(tool), DEBOUNCE_MS),
  );
}

function applyContext(ctx: McpUiHostContext | undefined): void {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
}

app.ontoolinput = ({ arguments: args }) => {
  for (const el of inputs()) {
    const name = el.getAttribute("data-mcp-input")!;
    if (args && name in args) writeValue(el, args[name]);
  }
};
app.ontoolresult = (result) => render(result as Result);
app.onhostcontextchanged = (ctx) => applyContext({ ...app.getHostContext(), ...ctx });

document.addEventListener("input", onInput);
document.addEventListener("change", onInput);
document.addEventListener("click", (ev) => {
  const button =
    ev.target instanceof HTMLElement
      ? ev.target.closest<HTMLElement>("button[data-mcp-tool], [role=button][data-mcp-tool]")
      : null;
  if (!button) return;
  ev.preventDefault();
  void call(button.getAttribute("data-mcp-tool")!);
});
document.addEventListener("submit", (ev) => {
  const tool = ev.target instanceof HTMLFormElement ? toolOf(ev.target) : undefined;
  if (!tool) return;
  ev.preventDefault();
  void call(tool);
});

/** For the view's own scripts: the connected `App`, and a call that fills the outputs. */
(globalThis as Record<string, unknown>).mcpbin = { app, call };
await app.connect();
applyContext(app.getHostContext());
