import { recordAudit, rowChange } from '../../audit';
import type { Transaction } from '../../db/scoped';
import { type CallInsert, type CallRow, insertCall } from './queries';

/** The agent that answers a number: its organization owns the call. */
interface AnsweringAgent {
  id: string;
  organizationId: string;
  type: CallRow['type'];
}

/**
 * Records a call to one of our numbers as ringing, answered by the number's agent, with its audit record.
 * Both inbound paths (Vapi's assistant request and Twilio's voice webhook) come here; `via` says which
 * details the audit keeps beyond the agent and the matched candidate.
 */
export async function insertInboundCall(
  tx: Transaction,
  agent: AnsweringAgent,
  call: Pick<CallInsert, 'candidateId' | 'provider' | 'providerCallId' | 'toPhone' | 'fromPhone' | 'language' | 'structuredData'>,
  auditDetails: Record<string, unknown> = {},
): Promise<CallRow> {
  const row = await insertCall(tx, {
    organizationId: agent.organizationId,
    voiceAgentId: agent.id,
    type: agent.type,
    direction: 'inbound',
    status: 'ringing',
    ...call,
  });
  await recordAudit(tx, rowChange(null, row, 'call.inbound', 'call', { voiceAgentId: agent.id, candidateId: row.candidateId, ...auditDetails }));
  return row;
}
