/**
 * Evidence text redacted when it is first read, not when it is recorded. The client records every
 * exchange (its request and answer bodies) but a passing test keeps none of them: redacting each
 * body as it came in cost ~10 % of a run's CPU for text nobody reads. The property is an
 * enumerable getter, so every way out of the process (JSON.stringify, structured clone to the main
 * thread, spread, Object.entries) reads it through the redaction; the unredacted text lives only
 * in the getter's closure, and the redacted one is cached on first read.
 */
import { redactText } from './redact.ts';

export function redactOnRead<T extends object>(holder: T, key: string, raw: string, secrets: readonly string[]): T {
  return shownOnRead(holder, key, () => redactText(raw, secrets));
}

/** The same for any value: `redact` makes what is shown (headers: redacted per value), once, on first read. */
export function shownOnRead<T extends object, V>(holder: T, key: string, redact: () => V): T {
  let shown: { v: V } | undefined;
  Object.defineProperty(holder, key, {
    enumerable: true,
    configurable: true,
    get: () => (shown ??= { v: redact() }).v,
    set: (v: V) => {
      shown = { v };
    },
  });
  return holder;
}
