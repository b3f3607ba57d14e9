import { describe, expect, it } from 'vitest';
import { splitCriteria, splitInlineList } from '../../../src/server/features/trials/criteria/structure';

/** How eligibility text splits into criteria: cohorts, lead-ins, one-line lists (trials/criteria/structure.ts). Every phrasing here is new wording, not a corpus record's. */

describe('a cohort heading over a lead-in, a one-line numbered list and its lead-in', () => {
  it('a cohort heading over a lead-in paragraph tags the items under it, and is no criterion', () => {
    const text = [
      'Inclusion Criteria:',
      '',
      'Healthy Volunteers',
      '',
      'Up to 20 volunteers will be enrolled. Volunteers are eligible only if all of the following criteria apply:',
      '',
      '1. Aged 18 to 45 years',
      '2. No chronic illness',
      '',
      'Patients With Gout',
      '',
      'Patients will be eligible if all of the following criteria apply:',
      '',
      '1. Gout flare in the last 30 days',
      '',
      'Exclusion Criteria:',
      '',
      '1. Kidney transplant',
    ].join('\n');
    const items = splitCriteria(text);
    expect(items.map((item) => [item.text, item.population ?? null])).toEqual([
      ['Aged 18 to 45 years', 'Healthy Volunteers'],
      ['No chronic illness', 'Healthy Volunteers'],
      ['Gout flare in the last 30 days', 'Patients With Gout'],
      ['Kidney transplant', null],
    ]);
  });

  it('a cohort heading with its lead-in on one line tags the items too', () => {
    const items = splitCriteria(
      ['Exclusion Criteria:', '', 'Control Subjects: Subjects will be excluded if any of the following criteria apply:', '', '1. Fever at screening'].join(
        '\n',
      ),
    );
    expect(items).toEqual([{ kind: 'exclusion', text: 'Fever at screening', population: 'Control Subjects' }]);
  });

  it('a numbered list written on one line is one criterion per number', () => {
    const text = ['Exclusion Criteria:', '', '- 1. Prior fusion at any lumbar level 2. Scoliosis of more than 20 degrees 3. A spinal tumour'].join('\n');
    expect(splitCriteria(text).map((item) => item.text)).toEqual(['Prior fusion at any lumbar level', 'Scoliosis of more than 20 degrees', 'A spinal tumour']);
    // The line's own marker was the first number: the text before the run is an item too.
    expect(splitInlineList('Prior hip replacement 10. Gout 11. Psoriasis 12. Lupus')).toEqual(['Prior hip replacement', 'Gout', 'Psoriasis', 'Lupus']);
  });

  it('a lead-in before a one-line list gives the items their context, and a bare one adds nothing', () => {
    expect(splitInlineList('Any of these ocular conditions: 1. Glaucoma 2. Uveitis 3. Cataract')).toEqual([
      'Any of these ocular conditions: Glaucoma',
      'Any of these ocular conditions: Uveitis',
      'Any of these ocular conditions: Cataract',
    ]);
    expect(splitInlineList('All of the following: 1. Gout 2. Psoriasis 3. Lupus')).toEqual(['Gout', 'Psoriasis', 'Lupus']);
  });

  it('numbers that are not a run of three counting up split nothing', () => {
    for (const text of [
      'Neuropathy of grade 2. Patients with grade 1 may enrol.',
      'Modic changes 2-3 2. The patient has a fused segment',
      'Took 5. Then 7. Then 9. Doses of aspirin',
    ])
      expect(splitInlineList(text)).toEqual([text]);
  });
});
