/**
 * The one Ajv instance of the project. Every schema is compiled once, here,
 * and reused (validators are cached by the instance).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

function newAjv(allErrors: boolean): Ajv2020 {
  const a = new Ajv2020({ allErrors, strict: true, allowUnionTypes: true });
  addFormats(a);
  a.addKeyword({ keyword: 'x-known-values', schemaType: 'array' });
  return a;
}

export const ajv = newAjv(true);
/**
 * The same schemas, stopping at the first error: for a large answer from a target (issue 31), whose
 * every error would otherwise be collected (an 8 MiB list of wrong items: millions of errors).
 */
export const ajvFirstError = newAjv(false);
