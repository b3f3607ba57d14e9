import { describe, expect, it } from 'vitest';
import { extractNoteFacts } from '../../src/server/features/matching/note-extractor';

const TODAY = new Date('2026-11-29T00:00:00Z');
const conditions = (text: string) =>
  extractNoteFacts(text, { today: TODAY })
    .filter((fact) => fact.kind === 'condition')
    .map((fact) => `${fact.name}: ${fact.status}`);

describe('spine notes in MRI and history words (note-spine.ts, decision 183)', () => {
  it('reads an extruded, protruding or sequestered disc as a displaced (herniated) disc', () => {
    expect(conditions('Imaging: C6-C7 disc extrusion narrowing the right foramen.')).toContain('a slipped (herniated) disc (cervical, C6-C7): present');
    expect(conditions('There is a small left posterolateral protrusion at L4-5.')).toContainEqual(
      expect.stringMatching(/^a slipped \(herniated\) disc.*: present$/),
    );
    expect(conditions('Repeat scan showed an extruded disk fragment migrating caudally.')).toContain('a slipped (herniated) disc: present');
    expect(conditions('The report mentions a disc sequestration.')).toContain('a slipped (herniated) disc: present');
  });

  it('keeps a denial a denial and reads no herniation from a bulge or another protrusion', () => {
    expect(conditions('No disc extrusion was found.')).toContain('a slipped (herniated) disc: absent');
    expect(conditions('Mild diffuse disc bulge at L3-L4.')).not.toContainEqual(expect.stringMatching(/herniated/));
    expect(conditions('Examination showed tongue protrusion to the left.')).toEqual([]);
  });

  it('reads pain spreading from the buttock or the back into the leg as sciatica, and thigh or calf pain as leg pain', () => {
    expect(conditions('Gluteal pain that shoots down to the foot when he coughs.')).toContain('sciatica: present');
    expect(conditions('Lateral thigh pain travelling to the shin for a month.')).toContainEqual(expect.stringMatching(/^sciatica/));
    expect(conditions('Cramping calf pain after walking two blocks.')).toContain('leg pain: present');
    expect(conditions('Right gluteal ache radiating down the lateral thigh and knee to the ankle.')).toContain('sciatica (unilateral): present');
    // Pain that stops at the thigh or the knee may be referred from the back: not sciatica.
    expect(conditions('Low back pain radiating into the buttocks and knees.')).not.toContainEqual(expect.stringMatching(/^sciatica/));
    expect(conditions('Back pain spreading to the left thigh.')).not.toContainEqual(expect.stringMatching(/^sciatica/));
    // Thigh pain that stays above the knee is leg pain only.
    expect(conditions('Thigh pain radiating to the knee.')).not.toContainEqual(expect.stringMatching(/^sciatica/));
  });

  it('reads neck pain spreading into the hand as arm pain, and a nerve root pressed on at a level as radiculopathy', () => {
    expect(conditions('Four weeks of neck ache shooting down to the left hand.')).toContain('arm pain (unilateral): present');
    expect(conditions('Foraminal stenosis with C7 nerve root impingement.')).toContainEqual(
      expect.stringMatching(/^a pinched nerve in the spine \(radiculopathy\).*: present$/),
    );
    expect(conditions('A fragment impinging on the traversing L5 root.')).toContainEqual(expect.stringMatching(/radiculopathy.*: present$/));
    expect(conditions('There is no C6 root compression.')).toContainEqual(expect.stringMatching(/radiculopathy.*: absent$/));
    // A root named without anything pressing on it is anatomy, not a finding.
    expect(conditions('The L4 nerve root exits normally.')).toEqual([]);
  });
});
