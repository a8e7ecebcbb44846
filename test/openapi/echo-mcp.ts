// An mcpbin server over the echo API (test/fixtures/openapi/echo.yaml): ECHO_URL is the API's base URL.
import { openapiTools, serve } from "../../src/index.ts";

const tools = await openapiTools(new URL("../fixtures/openapi/echo.yaml", import.meta.url).pathname, {
  baseUrl: process.env.ECHO_URL!,
  auth: { key: { env: "ECHO_KEY" }, token: { env: "ECHO_TOKEN" } },
  maxResponseBytes: 64 * 1024,
  mode: process.env.ECHO_MODE === "dynamic" ? "dynamic" : "tools",
});
await serve({ name: "echo", version: "1.0.0", tools });
