#!/usr/bin/env bun
// The mcpbin command; see `mcpbin --help`.
import { main } from "../src/cli/main.ts";
process.exitCode = await main(process.argv.slice(2));
