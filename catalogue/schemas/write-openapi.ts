/**
 * Writes the OpenAPI description document to docs/openapi.json.
 *
 *   npx tsx catalogue/schemas/write-openapi.ts           # (re)write the file
 *   npx tsx catalogue/schemas/write-openapi.ts --check   # exit 1 if the file differs from what the code builds
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serializeOpenApiDocument } from './openapi.ts';

export const OPENAPI_JSON_PATH = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));

function main(argv: readonly string[]): number {
  const text = serializeOpenApiDocument();
  if (argv.includes('--check')) {
    let current: string | undefined;
    try {
      current = readFileSync(OPENAPI_JSON_PATH, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === text) {
      console.log(`${OPENAPI_JSON_PATH} is up to date`);
      return 0;
    }
    console.error(`${OPENAPI_JSON_PATH} is out of date: run npx tsx catalogue/schemas/write-openapi.ts`);
    return 1;
  }
  mkdirSync(dirname(OPENAPI_JSON_PATH), { recursive: true });
  writeFileSync(OPENAPI_JSON_PATH, text);
  console.log(`wrote ${OPENAPI_JSON_PATH}`);
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
