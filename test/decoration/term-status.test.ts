/** The one rule that decides a matched term's status (src/modules/decoration/term-status.ts). */
import { describe, expect, it } from 'vitest';
import { termStatusOf } from '../../src/modules/decoration/term-status.js';

describe('termStatusOf', () => {
  it('reads the usage status values, a term without one being admitted', () => {
    expect(termStatusOf(['preferredTerm-admn-sts'])).toBe('preferred');
    expect(termStatusOf(['deprecatedTerm-admn-sts'])).toBe('deprecated');
    expect(termStatusOf(['Do not use'])).toBe('forbidden');
    expect(termStatusOf(['admittedTerm-admn-sts'])).toBe('admitted');
    expect(termStatusOf([])).toBe('admitted');
  });

  it('lets a rejected or retired workflow state decide over the usage status', () => {
    expect(termStatusOf(['preferredTerm-admn-sts'], 'REJECTED')).toBe('forbidden');
    expect(termStatusOf(['preferredTerm-admn-sts'], 'RETIRED')).toBe('deprecated');
    expect(termStatusOf(['preferredTerm-admn-sts'], 'APPROVED')).toBe('preferred');
    expect(termStatusOf([], 'REVIEW')).toBe('admitted');
  });
});
