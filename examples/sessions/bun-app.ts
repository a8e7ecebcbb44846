// A Bun.serve dev server that lets the AI client work inside it while it runs (docs/sessions.md).
// Start it (`bun examples/sessions/bun-app.ts`), then the client's mcpbin server with `sessions` finds it.
import { session, tool } from "mcpbin/session";
import * as v from "valibot";

const orders = new Map([
  [1, { id: 1, customer: "ada", total: 42.5, status: "paid" }],
  [2, { id: 2, customer: "grace", total: 9.99, status: "open" }],
]);
const seen: { method: string; path: string; status: number }[] = [];

const app = Bun.serve({
  port: Number(process.env.PORT ?? 0),
  fetch(req) {
    const url = new URL(req.url);
    const m = url.pathname.match(/^\/orders\/(\d+)$/);
    const order = m ? orders.get(Number(m[1])) : undefined;
    const res =
      url.pathname === "/"
        ? Response.json({ shop: "ok" })
        : order
          ? Response.json(order)
          : new Response("not found", { status: 404 });
    seen.push({ method: req.method, path: url.pathname, status: res.status });
    if (seen.length > 100) seen.shift();
    return res;
  },
});

const recentRequests = tool({
  name: "recent_requests",
  description: "The last requests the running shop served (method, path, status), newest last.",
  input: v.object({ limit: v.optional(v.number(), 10) }),
  run: ({ limit }) => ({ requests: seen.slice(-limit) }),
});

const inspectOrder = tool({
  name: "inspect_order",
  description: "An order as the running shop holds it in memory.",
  input: v.object({ id: v.number() }),
  run: ({ id }) => orders.get(id) ?? `no order ${id}`,
});

const s = await session({ name: "shop-dev", tools: [recentRequests, inspectOrder], eval: true, scope: { orders } });
console.log(`shop listening on ${app.url} (session ${s.id})`);
