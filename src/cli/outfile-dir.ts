/** @module outfileDir(): makes the folder of a build's --outfile and proves it writable, or says which folder and what permission is missing. */
import { closeSync, mkdirSync, openSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { CliError } from "./errors.ts";

/**
 * Makes `dirname(outfile)` (and its parents) and writes then removes a probe file in it, so that an unwritable
 * folder is reported before the compiler runs, in words: which folder, and that it needs write (and search)
 * permission for this user.
 * @param outfile - the absolute output path.
 * @throws CliError naming the folder and the missing permission.
 */
export function outfileDir(outfile: string): void {
  const dir = dirname(outfile);
  const say = (e: unknown) => {
    const code = (e as { code?: string }).code ?? String(e);
    return new CliError(
      `--outfile ${outfile}: cannot write in the directory ${dir} (${code}): this user needs write and search ` +
        `permission there (e.g. chmod u+wx ${dir}), or choose an --outfile in a directory you can write to`,
    );
  };
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw say(e);
  }
  const probe = join(dir, `.mcpbin-write-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, "wx"));
  } catch (e) {
    throw say(e);
  }
  rmSync(probe, { force: true });
}
