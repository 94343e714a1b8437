/** Building objects from generated entries. Not part of the public surface. */

/** Entries to an object; own data properties even for a key such as "__proto__". */
export function entriesToObject<V>(entries: ReadonlyArray<readonly [string, V]>): Record<string, V> {
  return Object.fromEntries(entries) as Record<string, V>;
}
