/** @module The table of mcpbin's commands, in the order `mcpbin --help` lists them: the dispatch and the help both come from it. */
import type { Command } from "../command.ts";
import { buildCommand } from "./build.ts";
import { devCommand } from "./dev.ts";
import { listCommand } from "./list.ts";
import { readCommand } from "./read.ts";
import { promptCommand } from "./prompt.ts";
import { callCommand } from "./call.ts";
import { initCommand } from "./init.ts";
import { releaseCommand } from "./release.ts";
import { previewCommand } from "./preview.ts";
import { openapiCommand } from "./openapi.ts";
import { installCommand } from "./install.ts";
import { bundleCommand } from "./bundle.ts";
import { proxyCommand } from "./proxy.ts";
import { authCliCommand } from "./auth.ts";

/** Every command, in help order. */
export const COMMANDS: readonly Command[] = [
  buildCommand,
  devCommand,
  listCommand,
  readCommand,
  promptCommand,
  callCommand,
  initCommand,
  releaseCommand,
  previewCommand,
  openapiCommand,
  installCommand,
  bundleCommand,
  proxyCommand,
  authCliCommand,
];
