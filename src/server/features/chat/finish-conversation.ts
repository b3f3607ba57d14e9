import type { AiRecommendation } from '../../../contract/prescreen';
import { AppError } from '../../http/errors';
import { recordActivity } from '../../activity';
import { findCandidate, insertContactEvents } from '../candidates/service';
import { recordPrescreenResultInTransaction } from '../prescreen/service';
import { closing, flatQuestions, type AgentReply, type DialogueState } from './dialogue';
import { updateConversationRow } from './queries';
import { CHAT_ACTOR, type TurnContext } from './turn';
import { findOrCreateCandidate, saveProfileAnswers } from './visitor-candidate';

/**
 * The end of a chat: the candidate (created now when verification is off and the visitor gave a name or an
 * answer), the prescreen result through the prescreen service (source chat, source id = the conversation),
 * the conversation COMPLETED, the contact event, and the closing messages.
 */
export async function finishConversation(turn: TurnContext, state: DialogueState): Promise<AgentReply[]> {
  const { tx, loaded } = turn;
  let candidateId = turn.conversation.candidateId;
  const answered = state.answers.some((answer) => answer.value !== null);
  if (!candidateId && !turn.agent.requirePhoneVerification && (state.firstName || answered)) {
    const row = await findOrCreateCandidate(turn, state, state.contactPhone, false);
    candidateId = row.id;
  }
  let recommendation: AiRecommendation | null = null;
  let resultId: string | null = null;
  if (candidateId) await saveProfileAnswers(turn, candidateId, state);
  if (candidateId) {
    const candidateRow = await findCandidate(tx, candidateId);
    const asked = new Set(flatQuestions(loaded.ctx.blocks).map((question) => question.id));
    const answers = state.answers
      .filter((answer) => asked.has(answer.questionId))
      .map((answer) => ({ questionId: answer.questionId, value: answer.value, ...(answer.evidence ? { evidence: answer.evidence } : {}) }));
    if (candidateRow) {
      try {
        const result = await recordPrescreenResultInTransaction(tx, [turn.conversation.organizationId], CHAT_ACTOR, {
          candidateId,
          formId: loaded.formId,
          sourceType: 'chat',
          sourceId: turn.conversation.id,
          answers,
          actor: CHAT_ACTOR,
        });
        recommendation = result.aiRecommendation;
        resultId = result.id;
      } catch (error) {
        // The checks run before any write: a form unpublished or changed mid-chat leaves no result, not a broken chat.
        if (!(error instanceof AppError)) throw error;
        turn.deps.logger.warn({ conversationId: turn.conversation.id, status: error.status }, 'chat result not recorded');
      }
      await insertContactEvents(tx, [
        {
          organizationId: turn.conversation.organizationId,
          candidateId,
          kind: 'chat',
          summary: recommendation ? `Chat completed: ${recommendation}` : state.ended === 'stopped' ? 'Chat stopped by the visitor' : 'Chat completed',
          details: {
            conversationId: turn.conversation.id,
            resultId,
            stopped: state.ended === 'stopped',
            answered: state.answers.filter((answer) => answer.value !== null).length,
          },
          referenceId: turn.conversation.id,
          actorLabel: CHAT_ACTOR.label,
        },
      ]);
    }
  }
  if (!turn.conversation.isTest) {
    await recordActivity(tx, [
      {
        organizationId: turn.conversation.organizationId,
        trialId: loaded.trialId,
        candidateId,
        kind: 'chat_completed',
        source: 'chat',
        label: state.ended === 'stopped' ? 'stopped' : (recommendation ?? 'completed'),
        agentId: turn.conversation.chatAgentId,
        referenceId: turn.conversation.id,
      },
    ]);
  }
  turn.conversation = await updateConversationRow(tx, turn.conversation.id, {
    status: 'COMPLETED',
    completedAt: new Date(),
    candidateId,
    prescreenResultId: resultId,
  });
  return closing(loaded.ctx, state, recommendation);
}
