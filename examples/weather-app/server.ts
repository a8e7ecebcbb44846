// An MCP App example: a weather dashboard view (TypeScript with the official App class, bundled by Bun
// into the executable), a tool the model calls to show it, and a tool only the view calls (its button).
// A second, no-script view binds an input to a tool with data-mcp-* attributes.
//   mcpbin preview examples/weather-app/server.ts     (a local host in the browser)
//   mcpbin build examples/weather-app/server.ts       (one executable, views inside)
import * as v from "valibot";
import { app, serve, tool } from "../../src/index.ts";

/** A deterministic stand-in for a weather service: the same city always gets the same weather. */
function weatherOf(city: string, dayOffset = 0): { tempC: number; sky: string } {
  let h = 7 + dayOffset * 31;
  for (const ch of city.toLowerCase()) h = (h * 33 + ch.charCodeAt(0)) % 100_003;
  return { tempC: (h % 35) - 5, sky: ["sunny", "cloudy", "rain", "windy", "snow"][Math.floor(h / 35) % 5]! };
}

export const dashboard = app({
  uri: "ui://weather/dashboard",
  name: "Weather dashboard",
  description: "Today's weather for a city, with a three-day forecast on request",
  view: "./views/dashboard.html",
  prefersBorder: true,
});

export const quick = app({
  uri: "ui://weather/quick",
  name: "Quick temperature (no-script view)",
  view: "./views/quick.html",
});

const Weather = v.object({ city: v.string(), tempC: v.number(), sky: v.string() });

export const showWeather = tool({
  name: "show_weather",
  title: "Show the weather",
  description: "Show today's weather for a city in an interactive dashboard",
  input: v.object({ city: v.pipe(v.string(), v.minLength(1)) }),
  output: Weather,
  ui: dashboard,
  run: ({ city }) => ({ city, ...weatherOf(city) }),
});

export const forecast = tool({
  name: "forecast",
  description: "The next three days for a city (called by the dashboard's button; hidden from the model)",
  input: v.object({ city: v.pipe(v.string(), v.minLength(1)) }),
  output: v.object({
    city: v.string(),
    days: v.array(v.object({ day: v.number(), tempC: v.number(), sky: v.string() })),
  }),
  ui: { app: dashboard, visibility: ["app"] },
  run: ({ city }) => ({ city, days: [1, 2, 3].map((day) => ({ day, ...weatherOf(city, day) })) }),
});

export const temperature = tool({
  name: "temperature",
  description: "Today's temperature for a city, in degrees Celsius",
  input: v.object({ city: v.pipe(v.string(), v.minLength(1)) }),
  output: Weather,
  ui: quick,
  run: ({ city }) => ({ city, ...weatherOf(city) }),
});

await serve({ name: "weather", version: "1.0.0", tools: [showWeather, forecast, temperature] });
