/** The tool's name and version, read once from package.json (the single place the version lives). */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'),
  'utf8',
)) as { name: string; version: string };

export const TOOL: { name: string; version: string } = { name: pkg.name, version: pkg.version };
