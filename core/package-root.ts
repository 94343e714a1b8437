/** The package's own directory (where suites/, bin/ and package.json live), wherever it is installed. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
