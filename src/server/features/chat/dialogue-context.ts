import { shortTrialTitle } from '../../../contract/trial-name';
import type { Language } from '../../../contract/prescreen-forms';
import type { Transaction } from '../../db/scoped';
import { AppError, conflict } from '../../http/errors';
import { findForm, findFormVersion } from '../prescreen/service';
import { findTrialRow } from '../trials/service';
import type { AgentRow } from './queries';
import type { Loaded } from './turn';

/** What the dialogue engine needs of a conversation's agent: its published form and its trial (starting and every turn). */

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The agent's published form (current version) and its trial's public description; 409 when not runnable.
 * A visitor starts a chat only for a recruiting trial (`mustRecruit`); staff may try one before the trial
 * starts recruiting, and a chat already started may finish.
 */
export async function loadContext(tx: Transaction, agent: AgentRow, mustRecruit = false): Promise<Loaded> {
  const form = agent.prescreenFormId ? await findForm(tx, agent.prescreenFormId) : undefined;
  if (form?.status !== 'published' || form.organizationId !== agent.organizationId) throw conflict('This chat is not available right now');
  const version = await findFormVersion(tx, form.id, form.currentVersion);
  const trial = await findTrialRow(tx, form.trialId);
  if (!version || !trial) throw conflict('This chat is not available right now');
  if (mustRecruit && trial.status !== 'recruiting') throw new AppError(409, 'This study is not enrolling right now', 'TRIAL_NOT_RECRUITING');
  return {
    formId: form.id,
    trialId: trial.id,
    ctx: {
      agent: {
        greeting: agent.greeting,
        closingMessage: agent.closingMessage,
        languages: (agent.languages.length ? agent.languages : ['en']) as Language[],
        requirePhoneVerification: agent.requirePhoneVerification,
        nextStep: agent.nextStep,
      },
      blocks: version.blocks,
      study: { title: shortTrialTitle(trial), summary: trial.summary, conditions: trial.conditions, sites: trial.sites },
      today: today(),
    },
  };
}
