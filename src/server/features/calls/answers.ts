import type { PrescreenAnswerInput } from '../../../contract/prescreen';
import type { Language, Question, StudyBlock } from '../../../contract/prescreen-forms';
import { patientQuestions } from '../../../contract/prescreen-forms';
import { normalize, understandAnswer } from '../chat/understand';

/**
 * Turning a finished call into prescreen answers. For each question of the form, the first source that has
 * an answer wins:
 * 1. the end-of-call report's structured data (`structuredData.analysis.answers`, {questionId: value});
 * 2. answers the agent recorded during the call with the set-call-metadata tool (`structuredData.answers`);
 * 3. the transcript: the assistant turn that asks the question (its phone wording, English or Spanish) and the
 *    next user turn, read with the chat's parser (understand.ts).
 * Text values always go through understand.ts, so "yes", "sí", "March 4 1980" become the question's type;
 * unclear text is left out (the question stays unanswered).
 */

export interface CallAnswerSources {
  structuredData: Record<string, unknown>;
  transcript: Array<{ role: string; text: string }>;
  language: string;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function coerce(question: Question, value: unknown, options: { today: string; language: Language }): PrescreenAnswerInput['value'] | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return question.type === 'yes_no' ? value : undefined;
  if (typeof value === 'number') return question.type === 'number' ? value : coerce(question, String(value), options);
  if (Array.isArray(value)) return question.type === 'multiple_choice' ? value.map(String) : undefined;
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const understood = understandAnswer(question, value, options);
  return understood.kind === 'value' ? understood.value : undefined;
}

/** How much of the question's wording the assistant's line contains (0-1). */
function overlap(line: string, wording: string): number {
  const want = normalize(wording)
    .split(' ')
    .filter((word) => word.length > 2);
  if (want.length === 0) return normalize(line) === normalize(wording) ? 1 : 0;
  const have = new Set(normalize(line).split(' '));
  return want.filter((word) => have.has(word)).length / want.length;
}

export function transcriptAnswer(question: Question, transcript: Array<{ role: string; text: string }>): string | undefined {
  let best = -1;
  let bestScore = 0.6;
  transcript.forEach((turn, index) => {
    if (turn.role === 'user') return;
    const score = Math.max(overlap(turn.text, question.wording.phone.en), question.wording.phone.es ? overlap(turn.text, question.wording.phone.es) : 0);
    if (score >= bestScore) {
      bestScore = score;
      best = index;
    }
  });
  if (best < 0) return undefined;
  return transcript.slice(best + 1).find((turn) => turn.role === 'user')?.text;
}

export function extractCallAnswers(blocks: StudyBlock[], sources: CallAnswerSources, today = new Date().toISOString().slice(0, 10)): PrescreenAnswerInput[] {
  const analysis = asRecord(asRecord(sources.structuredData.analysis).answers);
  const recorded = asRecord(sources.structuredData.answers);
  const language: Language = sources.language === 'es' ? 'es' : 'en';
  const answers: PrescreenAnswerInput[] = [];
  for (const question of patientQuestions(blocks)) {
    const options = { today, language };
    let value = coerce(question, analysis[question.id], options);
    let evidence = 'From the call';
    if (value === undefined) {
      value = coerce(question, recorded[question.id], options);
      evidence = 'Recorded by the agent during the call';
    }
    if (value === undefined) {
      const said = transcriptAnswer(question, sources.transcript);
      value = said === undefined ? undefined : coerce(question, said, options);
      evidence = `Said on the call: ${said ?? ''}`.slice(0, 2000);
    }
    if (value !== undefined) answers.push({ questionId: question.id, value, evidence });
  }
  return answers;
}
