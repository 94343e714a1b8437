import { describe, expect, it } from 'vitest';
import { enumNearMisses } from './enum-near-misses.ts';

describe('enumNearMisses', () => {
  it('gives six near misses of every member, none a member itself', () => {
    const members = ['PENDING', 'PAID', 'CANCELLED', 'REVERSED'];
    const misses = enumNearMisses(members);
    expect(misses).toHaveLength(members.length * 6);
    for (const m of misses) expect(members).not.toContain(m.value);
    for (const member of members) {
      const values = misses.filter((x) => x.of === member).map((x) => x.value);
      expect(values).toEqual([
        member.toLowerCase(),
        member[0] + member.slice(1).toLowerCase(),
        ` ${member}`,
        `${member} `,
        `\t${member}`,
        `${member}\t`,
      ]);
    }
  });

  it('is the same table on every call (no randomness)', () => {
    expect(enumNearMisses(['BKASH', 'NAGAD'])).toEqual(enumNearMisses(['BKASH', 'NAGAD']));
  });

  it('drops a form equal to a member', () => {
    expect(enumNearMisses(['a', 'A']).map((x) => x.value)).not.toContain('a');
  });
});
