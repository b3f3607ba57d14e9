import { describe, expect, it } from 'vitest';
import type { StudyBlock } from '../../src/contract/prescreen-forms';
import type { CriterionRule } from '../../src/contract/trials';
import { buildDemoData } from '../../src/server/features/demo/seed';
import { spanishName } from '../../src/server/features/trials/vocabulary';

/**
 * The demo's prescreen forms, as a Spanish-speaking person hears them on a call or reads them in a chat: the
 * conditions and medicines are named in Spanish ("¿tiene asma?", never "¿tiene asthma?"). Staff-only items quote
 * the criterion as the trial wrote it and are left out.
 */

const data = buildDemoData('00000000-0000-4000-8000-00000000d3e0', { seed: 20240601, now: new Date('2026-06-15T12:00:00Z'), candidates: 10 });
const words = (text: string) => new RegExp(`(^|[^\\p{L}])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\p{L}]|$)`, 'iu');

describe('the demo prescreen forms in Spanish', () => {
  const named = data.criteria.flatMap((row) => {
    const rule = row.rule as CriterionRule | null;
    return rule && (rule.type === 'condition' || rule.type === 'medication') ? [{ row, rule }] : [];
  });

  it('give every condition and medication rule its vocabulary concept, with a Spanish name', () => {
    expect(named.length).toBeGreaterThanOrEqual(5);
    for (const { row, rule } of named) {
      expect(rule.concepts?.length, row.text).toBeGreaterThan(0);
      expect(spanishName(rule.concepts![0].id), row.text).toBeTruthy();
    }
  });

  it('ask each patient question about a condition or medicine with its Spanish name and none of its English one', () => {
    const questions = data.formVersions.flatMap((version) =>
      (version.blocks as StudyBlock[]).flatMap((block) => block.questions).filter((question) => question.audience !== 'site'),
    );
    let checked = 0;
    for (const { row, rule } of named) {
      const concept = rule.concepts![0];
      const spanish = spanishName(concept.id)!;
      const english = [concept.name, rule.type === 'condition' ? rule.condition : rule.medication];
      for (const question of questions.filter((item) => item.criterionLinks.some((link) => link.criterionId === row.id))) {
        for (const es of [question.wording.phone.es, question.wording.chat.es]) {
          expect(es, row.text).toMatch(words(spanish));
          for (const word of english) if (word.toLowerCase() !== spanish.toLowerCase()) expect(es, row.text).not.toMatch(words(word));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(named.length * 2);
  });

  it("greet in Spanish with the study's Spanish name, never its English title (issue 32: the Spanish chat showed one)", () => {
    const titles = data.trials.map((trial) => trial.publicTitle ?? trial.title);
    // The English title's own words, but those Spanish spells the same ("oral", "diabetes").
    const englishWords = titles.flatMap((title) => title.split(/\s+/)).filter((word) => word.length > 3 && !/^(oral|diabetes)$/i.test(word));
    const spanishLines = [
      ...data.chatAgents.map((agent) => (agent.greeting as { es?: string }).es),
      ...data.voiceAgents.flatMap((agent) => [(agent.firstMessage as { es?: string }).es, (agent.voicemailMessage as { es?: string }).es]),
    ];
    expect(spanishLines.length).toBe(data.trials.length * 3);
    for (const line of spanishLines) {
      expect(line).toBeTruthy();
      for (const word of englishWords) expect(line, line).not.toMatch(words(word));
    }
    expect(spanishLines[0]).toContain('asma');
  });
});
