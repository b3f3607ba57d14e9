import type { ChecklistItem, Onboarding, OnboardingChecklist, OnboardingStep } from '../../../contract/onboarding';
import { VOICE_PURPOSES } from '../../../contract/phone-numbers';
import { runScoped, type RequestScope } from '../../auth/scope';
import { listPhoneNumberRows } from '../phone-numbers/service';
import { load, onboardingInScope, type OnboardingDeps } from './onboarding-record';

// ---- the checklist ----

/** What the checklist reads: the onboarding as built, the organization's phone numbers, and the providers in use. */
interface ChecklistFacts {
  state: Onboarding;
  numbers: Awaited<ReturnType<typeof listPhoneNumberRows>>;
  smsProvider: OnboardingDeps['sms']['provider'];
  voiceProvider: OnboardingDeps['voice']['provider'];
}

type ItemOf = (facts: ChecklistFacts) => ChecklistItem;

const step = (target: OnboardingStep, label: string) => ({ label, target: 'step' as const, step: target });
const phoneNumbers = { label: 'Open phone numbers', target: 'phone-numbers' as const };

const ownerItem: ItemOf = ({ state: { owner } }) =>
  owner?.status === 'member'
    ? { key: 'owner', label: 'Owner', state: 'done', detail: `${owner.email} has signed up as the owner.`, fix: null }
    : owner?.status === 'invited'
      ? { key: 'owner', label: 'Owner', state: 'attention', detail: `${owner.email} is invited and has not signed up yet.`, fix: step('owner', 'Invite again') }
      : {
          key: 'owner',
          label: 'Owner',
          state: 'missing',
          detail: owner ? `The invitation to ${owner.email} expired.` : 'Nobody is invited to own the organization.',
          fix: step('owner', 'Invite the owner'),
        };

const sitesItem: ItemOf = ({ state: { sites } }) =>
  sites.length
    ? {
        key: 'sites',
        label: 'Sites and time zones',
        state: 'done',
        detail: `${sites.length === 1 ? '1 site' : `${sites.length} sites`}, in ${[...new Set(sites.map((site) => site.timeZone))].join(', ')}.`,
        fix: null,
      }
    : {
        key: 'sites',
        label: 'Sites and time zones',
        state: 'missing',
        detail: 'No site yet: visits and calling hours need a site with its time zone.',
        fix: step('sites', 'Add sites'),
      };

const trialItem: ItemOf = ({ state: { trial } }) =>
  trial
    ? {
        key: 'trial',
        label: 'First trial',
        state: 'done',
        detail: `${trial.title}${trial.nctId ? ` (${trial.nctId})` : ''}: ${trial.ownSiteCount} of ${trial.siteCount} sites are ours.`,
        fix: null,
      }
    : { key: 'trial', label: 'First trial', state: 'missing', detail: 'No trial imported yet.', fix: step('trial', 'Import a trial') };

const recruitingItem: ItemOf = ({ state: { trial } }) =>
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
      : { key: 'recruiting', label: 'Recruiting', state: 'missing', detail: 'No trial to recruit for yet.', fix: step('trial', 'Import a trial') };

const prescreenFormItem: ItemOf = ({ state: { prescreenForm: form } }) =>
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
      : { key: 'prescreen_form', label: 'Prescreen form', state: 'missing', detail: 'No prescreen form yet.', fix: step('agents', 'Create the agents') };

/** An agent the onboarding made: active, inactive, or not made yet. */
const agentItem =
  (key: 'chat_agent' | 'voice_agent', label: string, target: 'chat-agents' | 'voice-agents', agentOf: (state: Onboarding) => Onboarding['chatAgent']): ItemOf =>
  ({ state }) => {
    const agent = agentOf(state);
    return agent?.active
      ? { key, label, state: 'done', detail: `${agent.name} is active.`, fix: null }
      : agent
        ? { key, label, state: 'missing', detail: `${agent.name} is inactive.`, fix: { label: 'Open the agents', target } }
        : { key, label, state: 'missing', detail: `No ${label.toLowerCase()} yet.`, fix: step('agents', 'Create the agents') };
  };

const sequenceItem: ItemOf = ({ state: { sequence } }) =>
  sequence?.status === 'active'
    ? { key: 'sequence', label: 'Starter sequence', state: 'done', detail: `${sequence.name} is ready for staff to enroll candidates.`, fix: null }
    : {
        key: 'sequence',
        label: 'Starter sequence',
        state: 'missing',
        detail: sequence ? `${sequence.name} is archived.` : 'No starter sequence yet.',
        fix: step('sequence', 'Create a sequence'),
      };

/** How a messaging channel reads: the simulator in use, or the real provider with or without the organization's number. */
interface ChannelWords {
  key: 'sms' | 'voice';
  label: string;
  simulated: string;
  realLabel: string;
  configured: (number: string) => string;
  noNumber: string;
}

/** A channel's item: the simulator is worth attention; with the real provider, the organization needs its own number. */
const channelItem = (words: ChannelWords, real: boolean, number: string | undefined): ChecklistItem => {
  const { key } = words;
  if (!real) return { key, label: words.label, state: 'attention', detail: words.simulated, fix: number ? null : phoneNumbers };
  return number
    ? { key, label: words.realLabel, state: 'done', detail: words.configured(number), fix: null }
    : { key, label: words.realLabel, state: 'missing', detail: words.noNumber, fix: phoneNumbers };
};

const smsItem: ItemOf = ({ numbers, smsProvider }) =>
  channelItem(
    {
      key: 'sms',
      label: 'SMS',
      simulated: 'SMS simulator in use: texts are recorded, not sent. Ask an administrator to connect a Twilio account to send them.',
      realLabel: 'SMS (Twilio)',
      configured: (number) => `Twilio is configured; the organization's texting number is ${number}.`,
      noNumber: 'No Twilio number configured for the organization: texts go out from the shared sender and replies cannot be told apart.',
    },
    smsProvider === 'twilio',
    numbers.find((number) => number.purpose === 'sms' || number.purpose === 'both')?.number,
  );

const voiceItem: ItemOf = ({ numbers, voiceProvider }) =>
  channelItem(
    {
      key: 'voice',
      label: 'Calls',
      simulated: 'Voice simulator in use: calls are simulated. Ask an administrator to connect a Vapi account to place real calls.',
      realLabel: 'Calls (Vapi)',
      configured: (number) => `Vapi is configured; the organization's voice number is ${number}.`,
      noNumber: 'No voice number for the organization: inbound calls cannot reach its agents.',
    },
    voiceProvider === 'vapi',
    numbers.find((number) => VOICE_PURPOSES.includes(number.purpose))?.number,
  );

/** The checklist's items, in the order it shows them. */
const CHECKLIST_ITEMS: ItemOf[] = [
  ownerItem,
  sitesItem,
  trialItem,
  recruitingItem,
  prescreenFormItem,
  agentItem('chat_agent', 'Chat agent', 'chat-agents', (state) => state.chatAgent),
  agentItem('voice_agent', 'Prescreen voice agent', 'voice-agents', (state) => state.voiceAgent),
  sequenceItem,
  smsItem,
  voiceItem,
];

/**
 * What is done and what is missing for the organization to recruit, each with where to fix it. Read live:
 * an agent deactivated or a number released since shows here at once.
 */
export async function checklist(deps: OnboardingDeps, scope: RequestScope, id: string): Promise<OnboardingChecklist> {
  const listed = await onboardingInScope(deps.db, scope, id);
  const state = await load(deps.db, scope, listed.onboarding.id);
  const numbers = await runScoped(deps.db, scope, (tx) => listPhoneNumberRows(tx, [state.organizationId]));
  const facts: ChecklistFacts = { state, numbers, smsProvider: deps.sms.provider, voiceProvider: deps.voice.provider };
  const items = CHECKLIST_ITEMS.map((itemOf) => itemOf(facts));
  return {
    onboardingId: state.id,
    organizationId: state.organizationId,
    items,
    doneCount: items.filter((item) => item.state === 'done').length,
    total: items.length,
  };
}
