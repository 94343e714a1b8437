/** GitHub Actions annotations: escaped per the workflow-command rules, one per FAIL rule. */
import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, githubAnnotations } from '../cli/github.ts';
import type { Report } from '../catalogue/report/model.ts';

describe('GitHub annotations', () => {
  it('escapes %, CR, LF in messages and also : and , in properties', () => {
    expect(escapeData('50% off\r\nnext: a,b')).toBe('50%25 off%0D%0Anext: a,b');
    expect(escapeProperty('A:B,C%')).toBe('A%3AB%2CC%25');
  });

  it('prints one ::error per FAIL rule with its replay line, nothing for WARN/PASS', () => {
    const rules = [
      {
        id: 'AUTH-MISSING-KEY',
        status: 'fail',
        reason: 'answered 201,\nexpected 401',
        evidence: [{ kind: 'replay', command: 'hps-conformance run --rule AUTH-MISSING-KEY --seed 1' }],
      },
      { id: 'RESP-X', status: 'warn', reason: 'w', evidence: [] },
      { id: 'AUTH-OK', status: 'pass', evidence: [] },
    ];
    const lines = githubAnnotations({ rules } as unknown as Report);
    // The reason's own line break is shown (\x0a), not kept: only the break before the replay line is ours.
    expect(lines).toEqual(['::error title=AUTH-MISSING-KEY::answered 201,\\x0aexpected 401%0Areplay: hps-conformance run --rule AUTH-MISSING-KEY --seed 1']);
    expect(lines[0]).not.toMatch(/\n/);
  });
});
