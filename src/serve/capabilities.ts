/** @module The wiring of capabilities: importing this registers each capability folder's methods with the core (src/server/register.ts), in this order (content after apps and skills: its catalog serves their resources). */
import "../tools/register.ts";
import "../ask/context.ts";
import "../apps/register.ts";
import "../skills/register.ts";
import "../content/register.ts";
