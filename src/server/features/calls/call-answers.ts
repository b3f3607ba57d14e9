import type { PrescreenAnswer } from '../../../contract/prescreen';
import { patientQuestions, type StudyBlock } from '../../../contract/prescreen-forms';
import { eq } from 'drizzle-orm';
import { prescreenResult } from '../../db/schema';
import type { Transaction } from '../../db/scoped';
import { findForm, findFormVersion } from '../prescreen/service';
import { findVoiceAgent } from '../voice-agents/service';
import { extractCallAnswers } from './answers';
import type { CallRow } from './queries';

/**
 * The answers a call page shows (issue 32): the ones the review lists, so the two never disagree. A call that
 * recorded a prescreen result shows that result's answers; one that did not (yet) shows what the same
 * extraction would record from it now, with the questions of its agent's form.
 */
export async function callAnswers(tx: Transaction, row: CallRow): Promise<PrescreenAnswer[]> {
  if (row.prescreenResultId) {
    const [result] = await tx.select({ answers: prescreenResult.answers }).from(prescreenResult).where(eq(prescreenResult.id, row.prescreenResultId));
    if (result) return result.answers as PrescreenAnswer[];
  }
  if (row.type !== 'PRESCREEN' || !row.voiceAgentId) return [];
  const agent = await findVoiceAgent(tx, row.voiceAgentId);
  const form = agent?.prescreenFormId ? await findForm(tx, agent.prescreenFormId) : undefined;
  const version = form ? await findFormVersion(tx, form.id, form.currentVersion) : undefined;
  if (!version) return [];
  const blocks = version.blocks as StudyBlock[];
  const questions = new Map(patientQuestions(blocks).map((question) => [question.id, question]));
  return extractCallAnswers(blocks, { structuredData: row.structuredData, transcript: row.transcript, language: row.language }).flatMap((answer) => {
    const question = questions.get(answer.questionId);
    return question
      ? [
          {
            questionId: answer.questionId,
            question: question.wording.phone.en,
            type: question.type,
            value: answer.value as PrescreenAnswer['value'],
            evidence: answer.evidence,
          },
        ]
      : [];
  });
}
