/**
 * What the bad-credential generators share: the case type, its printed form (never its text: it
 * often embeds a real key, encoded or altered), and small string helpers. Not part of the public
 * surface: service/generators/invalid-credentials.ts re-exports what suites need.
 */
import fc from 'fast-check';

/** How a request authenticates: `key` (Bearer), `authorization` (raw header), or neither (no header). */
export interface BadCredential {
  key?: string | null;
  authorization?: string;
  /** Family of the case, e.g. `basic scheme`, `wrong prefix`. */
  family: string;
  kind: 'missing' | 'malformed' | 'unknown' | 'revoked';
}

/** How a case prints in fast-check's counterexamples and transcripts. */
export type PrintCredential = (c: BadCredential) => string;

export interface CredentialConstraints {
  /**
   * The printed form of a case. @defaultValue family, kind and length, never the text; a suite
   * passes one that adds a fingerprint (suites/auth/bad-credentials.ts).
   */
  print?: PrintCredential;
}

/** Family, kind and length of a case, never its text. */
export const printWithoutText: PrintCredential = (c) => {
  const text = c.authorization ?? c.key;
  const what = text === undefined || text === null ? 'none' : `${text.length} chars`;
  return `{family:${JSON.stringify(c.family)},kind:${JSON.stringify(c.kind)},credential:"${c.authorization !== undefined ? 'Authorization ' : 'key '}${what}"}`;
};

/** Attaches `print` as the value's printed form (non-enumerable: spreads never copy it). */
export function printedAs(c: BadCredential, print: PrintCredential = printWithoutText): BadCredential {
  Object.defineProperty(c, fc.toStringMethod, { value: () => print(c), enumerable: false });
  return c;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const alnumChar = fc.constantFrom(...ALNUM);
export const alnum = (minLength: number, maxLength: number) => fc.string({ unit: alnumChar, minLength, maxLength });

/** The token of a Bearer key: prefix and random part. */
export function splitKey(key: string): { prefix: string; secret: string } {
  const m = /^(pt_(?:test|live)_sk_)(.*)$/.exec(key);
  return m ? { prefix: m[1]!, secret: m[2]! } : { prefix: '', secret: key };
}
