import { describe, expect, it } from 'vitest';
import type { CriterionRule } from '../../../src/contract/trials';
import { evaluateCriterion, type MatchFact, type MatchPerson } from '../../../src/server/features/matching/evaluate';
import { extractNoteFacts } from '../../../src/server/features/matching/note-extractor';
import { ruleCriterion } from '../../support/match-facts';

// Decision 249. Every note below is written for this file (not copied from the labelled set).
const today = new Date('2026-06-15T12:00:00Z');
const facts = (text: string) => extractNoteFacts(`48-year-old man. ${text}`, { today });
const denied = (text: string) =>
  facts(text)
    .filter((fact) => fact.kind === 'condition' && fact.status === 'absent')
    .map((fact) => fact.name);
const present = (text: string) =>
  facts(text)
    .filter((fact) => fact.kind === 'condition' && fact.status === 'present')
    .map((fact) => fact.name);

const CES = 'cauda equina syndrome';
const MYELOPATHY = 'spinal cord damage (myelopathy)';
const PARESIS = 'paresis';

describe('a normal neurological examination denies the deficits it would show', () => {
  it.each([
    'On review the patient is neurologically intact.',
    'Neuro exam: non-focal.',
    'The neurological examination was entirely normal.',
    'Unremarkable neurological exam apart from mild tremor at rest.',
    'No focal neurologic deficits on assessment.',
  ])('%s', (text) => {
    for (const name of [CES, MYELOPATHY, PARESIS]) expect(denied(text)).toContain(name);
  });

  it('says nothing of neurological disease in general', () => {
    const names = denied('Known epilepsy, seizure free; neurologically intact today.');
    expect(names.some((name) => /neurolog|nervous system|epilep/i.test(name))).toBe(false);
  });

  it('leaves a deficit the note names as present', () => {
    const text = 'Right foot drop from a peroneal palsy with paresis of dorsiflexion; neurological exam otherwise normal.';
    expect(present(text)).toContain(PARESIS);
    expect(denied(text)).not.toContain(PARESIS);
  });

  it('reads no normal examination where none is said', () => {
    expect(denied('Neurological examination to follow at the next visit.')).toEqual([]);
    expect(denied('A neurological exam was requested by the family doctor.')).toEqual([]);
  });
});

describe('bowel and bladder said to be normal', () => {
  it.each(['He denies bladder or bowel incontinence since the fall.', 'Bowel and bladder function intact.', 'No sphincter disturbance reported.'])(
    '%s denies incontinence and a neurogenic bladder, not cauda equina syndrome alone',
    (text) => {
      const names = denied(text);
      expect(names).toContain('fecal incontinence');
      expect(names.some((name) => name.startsWith('bladder or bowel problems from nerve damage'))).toBe(true);
      expect(names).not.toContain(CES);
    },
  );

  it('with saddle sensation also said to be normal, denies cauda equina syndrome', () => {
    expect(denied('Low back ache after gardening. Bladder and bowel function normal, perineal sensation intact.')).toContain(CES);
    expect(denied('Without bowel or bladder changes and without perianal numbness.')).toContain(CES);
  });

  it('a saddle numbness the note reports is no denial', () => {
    expect(denied('Bladder and bowel function intact, but new saddle numbness since this morning.')).not.toContain(CES);
  });
});

describe('no prior procedures of a part deny its surgery', () => {
  it.each([
    ['Never had any back procedures.', 'back or spine surgery'],
    ['No previous spinal interventions of any kind.', 'back or spine surgery'],
    ['No prior neck operations.', 'neck surgery'],
  ])('%s', (text, name) => {
    expect(denied(text)).toContain(name);
  });

  it('does not read a region narrower than the concept as the whole spine', () => {
    expect(denied('No prior lumbar procedures.')).not.toContain('back or spine surgery');
  });
});

describe('the matcher reads these denials for an exclusion, never for a wanted condition', () => {
  const person = (text: string): MatchPerson => ({
    dateOfBirth: null,
    sex: 'male',
    facts: facts(text).map((fact, index) => ({ ...fact, id: `n${index}`, source: 'note' }) as MatchFact),
  });
  const rule = (id: string, condition: string, present: boolean): CriterionRule => ({
    type: 'condition',
    condition,
    present,
    concepts: [{ id, name: condition }],
  });
  const note = 'Two weeks of right sciatica after lifting a sofa. Neurologically intact. Bowel and bladder function intact, saddle sensation normal.';

  it('clears an exclusion of cauda equina syndrome or of myelopathy', () => {
    const ces = ruleCriterion(rule('cohortly:cauda-equina-syndrome', CES, false), 'exclusion');
    const cord = ruleCriterion(rule('cohortly:myelopathy', MYELOPATHY, false), 'exclusion');
    expect(evaluateCriterion(ces, person(note), today).outcome).toBe('met');
    expect(evaluateCriterion(cord, person(note), today).outcome).toBe('met');
  });

  it('fails an inclusion that wants the condition the note denies, as any denial does', () => {
    const wanted = ruleCriterion(rule('cohortly:myelopathy', MYELOPATHY, true));
    expect(evaluateCriterion(wanted, person(note), today).outcome).toBe('not_met');
  });
});

describe('a denial of immunosuppressive therapy reaches anti-CD20 antibodies (decision 252)', () => {
  const patient = (text: string): MatchPerson => ({
    dateOfBirth: null,
    sex: 'female',
    facts: extractNoteFacts(`39-year-old woman. ${text}`, { today }).map((fact, index) => ({ ...fact, id: `m${index}`, source: 'note' }) as MatchFact),
  });
  const antiCd20 = (taking: boolean): CriterionRule => ({
    type: 'medication',
    medication: 'rituximab',
    taking,
    history: true,
    concepts: [{ id: 'cohortly:anti-cd20', name: 'rituximab or a similar medicine (anti-CD20)' }],
  });

  it('clears an exclusion of prior rituximab', () => {
    const note = 'Lupus nephritis class V on biopsy; has never received immunosuppressive drugs.';
    expect(evaluateCriterion(ruleCriterion(antiCd20(false), 'exclusion'), patient(note), today).outcome).toBe('met');
  });

  it('never fails an inclusion that wants it, and a named course still decides', () => {
    const denied = 'Has never received immunosuppressive drugs.';
    expect(evaluateCriterion(ruleCriterion(antiCd20(true)), patient(denied), today).outcome).toBe('unknown');
    const given = 'Two infusions of rituximab in 2024; no other immunosuppressive drugs.';
    expect(evaluateCriterion(ruleCriterion(antiCd20(false), 'exclusion'), patient(given), today).outcome).toBe('not_met');
  });
});

// Decision 284. New wording, written for this file.
describe('the signs of a compressed cord said to be absent deny myelopathy', () => {
  it.each([
    'Cervical radiculopathy on the left; no myelopathic features.',
    'Examination shows no long-tract signs.',
    'Without upper motor neuron findings on review.',
    'She denies clumsy hands and walking difficulty.',
    'No balance problems or fine motor difficulty reported.',
  ])('%s', (text) => {
    expect(denied(text)).toContain(MYELOPATHY);
  });

  it('one cardinal symptom alone, or a cord sign anywhere in the note, leaves it to a person', () => {
    expect(denied('No gait instability reported.')).not.toContain(MYELOPATHY);
    expect(denied('No hand dysfunction; walks with a cane after a stroke.')).not.toContain(MYELOPATHY);
    expect(denied('No gait problems or hand dysfunction, but brisk reflexes with clonus at both ankles.')).not.toContain(MYELOPATHY);
    expect(denied('No gait problems or hand dysfunction. MRI: disc osteophyte complex with cord compression at C4-C5.')).not.toContain(MYELOPATHY);
  });

  it('clears an exclusion of myelopathy', () => {
    const rule: CriterionRule = { type: 'condition', condition: 'myelopathy', present: false, concepts: [{ id: 'cohortly:myelopathy', name: MYELOPATHY }] };
    const person: MatchPerson = {
      dateOfBirth: null,
      sex: 'unknown',
      facts: facts('Arm pain for 5 weeks; no long tract signs.').map((read, index) => ({ ...read, id: `n${index}`, observedOn: null }) as unknown as MatchFact),
    };
    expect(evaluateCriterion(ruleCriterion(rule, 'exclusion'), person, today).outcome).toBe('met');
  });
});

describe('a denial of neck surgery clears an exclusion of cervical spine surgery only', () => {
  const spineSurgery = (qualifiers: Array<'cervical' | 'lumbar'> | undefined, present = false): CriterionRule => ({
    type: 'condition',
    condition: 'spine surgery',
    present,
    history: true,
    concepts: [{ id: 'cohortly:spine-surgery', name: 'back or spine surgery' }],
    ...(qualifiers ? { qualifiers } : {}),
  });
  const person: MatchPerson = {
    dateOfBirth: null,
    sex: 'unknown',
    facts: facts('Right arm pain and paraesthesia for two months; she has never had surgery on the neck.').map(
      (read, index) => ({ ...read, id: `n${index}`, observedOn: null }) as unknown as MatchFact,
    ),
  };
  const judged = (rule: CriterionRule, kind: 'inclusion' | 'exclusion') => evaluateCriterion(ruleCriterion(rule, kind), person, today).outcome;

  it('reads the note as a denial of neck surgery', () => {
    expect(denied('Denies any previous neck operation.')).toContain('neck surgery');
  });

  it('meets "no prior cervical spine surgery" and leaves the rest alone', () => {
    expect(judged(spineSurgery(['cervical']), 'exclusion')).toBe('met');
    expect(judged(spineSurgery(['lumbar']), 'exclusion')).toBe('unknown');
    expect(judged(spineSurgery(undefined), 'exclusion')).toBe('unknown');
    expect(judged(spineSurgery(['cervical'], true), 'inclusion')).toBe('unknown');
  });
});
