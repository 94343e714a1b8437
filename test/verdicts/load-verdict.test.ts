/**
 * A load run's verdict is decided once, in results/verdict/load-verdict.ts, for `load` and
 * `load merge`: no file of load/ maps results to a verdict or an exit status of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadVerdict } from '../../results/verdict/load-verdict.ts';

const pass = { status: 'pass' };
const fail = { status: 'fail' };
const skip = { status: 'skip' };

describe('load verdict', () => {
  it('fails on a failed check or a missed threshold, whatever else', () => {
    expect(loadVerdict([pass, fail], [pass])).toEqual({ verdict: 'fail', exit_code: 1 });
    expect(loadVerdict([pass], [fail])).toEqual({ verdict: 'fail', exit_code: 1 });
    expect(loadVerdict([fail], [], 2)).toEqual({ verdict: 'fail', exit_code: 1 });
  });

  it('is incomplete when a shard is missing and nothing failed, passes otherwise', () => {
    expect(loadVerdict([pass, skip], [pass], 1)).toEqual({ verdict: 'incomplete', exit_code: 6 });
    expect(loadVerdict([pass, skip], [pass])).toEqual({ verdict: 'pass', exit_code: 0 });
    expect(loadVerdict([], [])).toEqual({ verdict: 'pass', exit_code: 0 });
  });

  it('is decided nowhere in load/', () => {
    const root = join(import.meta.dirname, '../../load');
    const decides = /EXIT\.(notConformant|incomplete|conformant)|verdict:\s*(failed|'fail'|'pass')/;
    const deciding = readdirSync(root)
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => decides.test(readFileSync(join(root, f), 'utf8')));
    expect(deciding).toEqual([]);
  });
});
