import { CALL_BLOCK_WORDS, type CallPreCheck, type CallPreCheckQuery } from '../../../contract/voice';
import { zoneOfInternationalPhone } from '../../../contract/phone-zones';
import { canReach, runScoped, type RequestScope } from '../../auth/scope';
import { notFound } from '../../http/errors';
import { callingZonesOf, nextCallingTimeFor } from '../../calling-hours';
import { findCandidate } from '../candidates/service';
import { activeVoiceAgent, noAgentWords, type VoiceDeps } from '../voice-agents/service';
import { callBlockReasons } from './service';

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/**
 * GET /api/calls/pre-check: what "Call now" would meet, asked when its dialog opens (issue 32): every reason
 * the call cannot be placed at once (the same rules POST /api/calls applies), and when only the calling hours
 * stand in the way, the next moment they allow a call, for a callback. Reads only; 404 outside the scope.
 */
export async function callPreCheck(deps: VoiceDeps, scope: RequestScope, query: CallPreCheckQuery, now: Date = new Date()): Promise<CallPreCheck> {
  return runScoped(deps.db, scope, async (tx) => {
    const person = await findCandidate(tx, query.candidateId);
    if (!person || !canReach(scope, person.organizationId)) throw notFound('Candidate not found');
    const forCall = { candidateId: person.id };
    const found = await activeVoiceAgent(tx, person.organizationId, query.type, forCall);
    const agent = found && !(found.type === 'PRESCREEN' && !found.prescreenFormId) ? found : null;
    const reasons = callBlockReasons(person, query.type, agent, now);
    // Which trial lacks an agent (or that the person is in none), rather than a bare "no agent".
    const noAgent = agent ? null : await noAgentWords(tx, query.type, forCall);
    const onlyHours = reasons.length === 1 && reasons[0] === 'quiet_hours';
    const byPhone = person.timeZone ? null : zoneOfInternationalPhone(person.phone, now);
    const zones = callingZonesOf(person);
    return {
      canCall: reasons.length === 0,
      reasons: reasons.map((reason) => ({ reason, message: reason === 'no_agent' && noAgent ? noAgent : CALL_BLOCK_WORDS[reason] })),
      agent: agent ? { id: agent.id, name: agent.name } : null,
      nextAllowedAt: onlyHours ? nextCallingTimeFor(now, person, agent ?? undefined).toISOString() : null,
      timeZone: zones.length === 1 ? zones[0] : null,
      zoneUnknownCountry: byPhone?.kind === 'several' ? (countryNames.of(byPhone.country) ?? byPhone.country) : null,
    };
  });
}
