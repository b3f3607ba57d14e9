import type { ChecklistItem, OnboardingChecklist, OnboardingStep } from '../../../contract/onboarding';
import { VOICE_PURPOSES } from '../../../contract/phone-numbers';
import { runScoped, type RequestScope } from '../../auth/scope';
import { listPhoneNumberRows } from '../phone-numbers/service';
import { load, onboardingInScope, type OnboardingDeps } from './onboarding-record';

// ---- the checklist ----

/**
 * What is done and what is missing for the organization to recruit, each with where to fix it. Read live:
 * an agent deactivated or a number released since shows here at once.
 */
export async function checklist(deps: OnboardingDeps, scope: RequestScope, id: string): Promise<OnboardingChecklist> {
  const listed = await onboardingInScope(deps.db, scope, id);
  const state = await load(deps.db, scope, listed.onboarding.id);
  const numbers = await runScoped(deps.db, scope, (tx) => listPhoneNumberRows(tx, [state.organizationId]));
  const step = (target: OnboardingStep, label: string) => ({ label, target: 'step' as const, step: target });
  const items: ChecklistItem[] = [];

  const owner = state.owner;
  items.push(
    owner?.status === 'member'
      ? { key: 'owner', label: 'Owner', state: 'done', detail: `${owner.email} has signed up as the owner.`, fix: null }
      : owner?.status === 'invited'
        ? {
            key: 'owner',
            label: 'Owner',
            state: 'attention',
            detail: `${owner.email} is invited and has not signed up yet.`,
            fix: step('owner', 'Invite again'),
          }
        : {
            key: 'owner',
            label: 'Owner',
            state: 'missing',
            detail: owner ? `The invitation to ${owner.email} expired.` : 'Nobody is invited to own the organization.',
            fix: step('owner', 'Invite the owner'),
          },
  );

  const zones = [...new Set(state.sites.map((site) => site.timeZone))];
  items.push(
    state.sites.length
      ? {
          key: 'sites',
          label: 'Sites and time zones',
          state: 'done',
          detail: `${state.sites.length === 1 ? '1 site' : `${state.sites.length} sites`}, in ${zones.join(', ')}.`,
          fix: null,
        }
      : {
          key: 'sites',
          label: 'Sites and time zones',
          state: 'missing',
          detail: 'No site yet: visits and calling hours need a site with its time zone.',
          fix: step('sites', 'Add sites'),
        },
  );

  const trial = state.trial;
  items.push(
    trial
      ? {
          key: 'trial',
          label: 'First trial',
          state: 'done',
          detail: `${trial.title}${trial.nctId ? ` (${trial.nctId})` : ''}: ${trial.ownSiteCount} of ${trial.siteCount} sites are ours.`,
          fix: null,
        }
      : { key: 'trial', label: 'First trial', state: 'missing', detail: 'No trial imported yet.', fix: step('trial', 'Import a trial') },
  );
  items.push(
    trial?.status === 'recruiting'
      ? { key: 'recruiting', label: 'Recruiting', state: 'done', detail: 'The trial is recruiting.', fix: null }
      : trial
        ? {
            key: 'recruiting',
            label: 'Recruiting',
            state: 'missing',
            detail: `The trial is ${trial.status}: review it and start recruiting (calls and the public chat need a recruiting trial).`,
            fix: { label: 'Open the trial', target: 'trial', id: trial.id },
          }
        : { key: 'recruiting', label: 'Recruiting', state: 'missing', detail: 'No trial to recruit for yet.', fix: step('trial', 'Import a trial') },
  );

  const form = state.prescreenForm;
  items.push(
    form?.status === 'published'
      ? {
          key: 'prescreen_form',
          label: 'Prescreen form',
          state: 'done',
          detail: `${form.name} is published (${form.questionCount === 1 ? '1 question' : `${form.questionCount} questions`}).`,
          fix: null,
        }
      : form
        ? {
            key: 'prescreen_form',
            label: 'Prescreen form',
            state: 'missing',
            detail: `${form.name} is ${form.status}: agents ask only a published form.`,
            fix: { label: 'Open the form', target: 'prescreen-form', id: form.id },
          }
        : { key: 'prescreen_form', label: 'Prescreen form', state: 'missing', detail: 'No prescreen form yet.', fix: step('agents', 'Create the agents') },
  );
  for (const [key, label, agent, target] of [
    ['chat_agent', 'Chat agent', state.chatAgent, 'chat-agents'],
    ['voice_agent', 'Prescreen voice agent', state.voiceAgent, 'voice-agents'],
  ] as const) {
    items.push(
      agent?.active
        ? { key, label, state: 'done', detail: `${agent.name} is active.`, fix: null }
        : agent
          ? { key, label, state: 'missing', detail: `${agent.name} is inactive.`, fix: { label: 'Open the agents', target } }
          : { key, label, state: 'missing', detail: `No ${label.toLowerCase()} yet.`, fix: step('agents', 'Create the agents') },
    );
  }
  items.push(
    state.sequence?.status === 'active'
      ? { key: 'sequence', label: 'Starter sequence', state: 'done', detail: `${state.sequence.name} is ready for staff to enroll candidates.`, fix: null }
      : {
          key: 'sequence',
          label: 'Starter sequence',
          state: 'missing',
          detail: state.sequence ? `${state.sequence.name} is archived.` : 'No starter sequence yet.',
          fix: step('sequence', 'Create a sequence'),
        },
  );

  const phoneNumbers = { label: 'Open phone numbers', target: 'phone-numbers' as const };
  const smsNumber = numbers.find((number) => number.purpose === 'sms' || number.purpose === 'both');
  if (deps.sms.provider === 'twilio') {
    items.push(
      smsNumber
        ? {
            key: 'sms',
            label: 'SMS (Twilio)',
            state: 'done',
            detail: `Twilio is configured; the organization's texting number is ${smsNumber.number}.`,
            fix: null,
          }
        : {
            key: 'sms',
            label: 'SMS (Twilio)',
            state: 'missing',
            detail: 'No Twilio number configured for the organization: texts go out from the shared sender and replies cannot be told apart.',
            fix: phoneNumbers,
          },
    );
  } else {
    items.push({
      key: 'sms',
      label: 'SMS',
      state: 'attention',
      detail: 'SMS simulator in use: texts are recorded, not sent. Configure Twilio (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and a sender) to send them.',
      fix: smsNumber ? null : phoneNumbers,
    });
  }
  const voiceNumber = numbers.find((number) => VOICE_PURPOSES.includes(number.purpose));
  if (deps.voice.provider === 'vapi') {
    items.push(
      voiceNumber
        ? {
            key: 'voice',
            label: 'Calls (Vapi)',
            state: 'done',
            detail: `Vapi is configured; the organization's voice number is ${voiceNumber.number}.`,
            fix: null,
          }
        : {
            key: 'voice',
            label: 'Calls (Vapi)',
            state: 'missing',
            detail: 'No voice number for the organization: inbound calls cannot reach its agents.',
            fix: phoneNumbers,
          },
    );
  } else {
    items.push({
      key: 'voice',
      label: 'Calls',
      state: 'attention',
      detail: 'Voice simulator in use: calls are simulated. Configure Vapi (VAPI_API_KEY) to place real calls.',
      fix: voiceNumber ? null : phoneNumbers,
    });
  }

  return {
    onboardingId: state.id,
    organizationId: state.organizationId,
    items,
    doneCount: items.filter((item) => item.state === 'done').length,
    total: items.length,
  };
}
