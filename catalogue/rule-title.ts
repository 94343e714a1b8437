/** A test's title starts with the id of the rule it checks ("AUTH-MISSING-KEY: …"). */
export function ruleIdOfTitle(title: string): string | undefined {
  return /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+):/.exec(title)?.[1];
}
