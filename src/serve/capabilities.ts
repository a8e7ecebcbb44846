/** @module The wiring of capabilities: importing this registers each capability folder's methods with the core (src/server/register.ts), in this order. */
import "../tools/register.ts";
import "../ask/context.ts";
import "../content/register.ts";
import "../apps/register.ts";
import "../skills/register.ts";
