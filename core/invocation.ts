/**
 * The command a user typed to start this tool, for the replay lines it prints: a line that says
 * `hps-conformance run …` is no help in a clone, where `hps-conformance` is not on PATH. The rule,
 * so that the line runs from where the user is (docs/proof.md, "Verdicts you can trust": replays):
 * - started by npm (`npx hps-conformance`, `npm exec`, an npm script such as `npm run conformance`):
 *   `npx hps-conformance` (in a clone npx finds the package's own bin; elsewhere the installed one);
 * - started through the installed command (`hps-conformance` on PATH, a global install or a Docker
 *   image's entrypoint): `hps-conformance`;
 * - started as a file (`node bin/hps-conformance.mjs`): `node` and that file, relative to the
 *   working directory when it is under it, else absolute.
 */
import { basename, isAbsolute, relative, resolve } from 'node:path';

const NAME = 'hps-conformance';

/** A word the shell takes as it is, else quoted. */
function shellWord(s: string): string {
  return /^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function invokedAs(env: NodeJS.ProcessEnv = process.env, script = process.argv[1], cwd = process.cwd()): string {
  if (env.npm_command === 'exec' || env.npm_command === 'run-script' || env.npm_lifecycle_event) return `npx ${NAME}`;
  if (!script || basename(script) === NAME) return NAME;
  const abs = resolve(cwd, script);
  const rel = relative(cwd, abs);
  return `node ${shellWord(rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs)}`;
}
