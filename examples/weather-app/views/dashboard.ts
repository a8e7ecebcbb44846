// The dashboard's script: bundled by Bun with the official App class into the one HTML document.
import { App, applyDocumentTheme, applyHostStyleVariables } from "@modelcontextprotocol/ext-apps";

type Weather = { city: string; tempC: number; sky: string };
type Forecast = { city: string; days: { day: number; tempC: number; sky: string }[] };

const $ = (id: string) => document.getElementById(id)!;
const button = $("forecast") as HTMLButtonElement;
let city = "";

/** Each message from the host, in the order it came (the browser test reads this list). */
function record(what: string): void {
  const li = document.createElement("li");
  li.textContent = what;
  $("events").append(li);
  document.body.dataset.events = `${document.body.dataset.events ?? ""}${what} `;
}

const app = new App({ name: "Weather dashboard", version: "1.0.0" });
app.ontoolinput = ({ arguments: args }) => {
  record("tool-input");
  city = String(args?.city ?? "");
  $("city").textContent = city;
};
app.ontoolresult = (result) => {
  record("tool-result");
  const w = result.structuredContent as Weather | undefined;
  if (!w) return;
  $("temp").textContent = `${w.tempC} °C`;
  $("sky").textContent = w.sky;
  button.disabled = false;
};
app.onhostcontextchanged = (ctx) => {
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
};

button.addEventListener("click", async () => {
  button.disabled = true;
  const r = await app.callServerTool({ name: "forecast", arguments: { city } });
  const f = r.structuredContent as Forecast | undefined;
  $("days").replaceChildren(
    ...(f?.days ?? []).map((d) => {
      const li = document.createElement("li");
      li.textContent = `day +${d.day}: ${d.tempC} °C, ${d.sky}`;
      return li;
    }),
  );
  document.body.dataset.forecast = f ? "shown" : "failed";
  button.disabled = false;
});

await app.connect();
record("ui/initialize");
const ctx = app.getHostContext();
if (ctx?.theme) applyDocumentTheme(ctx.theme);
if (ctx?.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
