/**
 * What every step of the demo data builder shares: the seeded dice, the rows built so far, the organization and
 * the clock, and the shapes of a trial and a person while they are built. The steps live beside this file:
 * seed-trials.ts (trials, sites, forms, agents), seed-people.ts (people), seed-activity.ts (messages, calls,
 * visits, status changes), seed-outcomes.ts (each person's way through the funnel).
 */
import type { CandidateStatus } from '../../../contract/candidates';
import type { StudyBlock } from '../../../contract/prescreen-forms';
import type { TrialSite } from '../../../contract/trials';
import type { ActivityEntry } from '../../activity';
import type {
  booking,
  call,
  candidate,
  candidateTrial,
  chatAgent,
  chatConversation,
  chatMessage,
  contactEvent,
  prescreenForm,
  prescreenFormVersion,
  prescreenResult,
  smsMessage,
  trial,
  trialCriterion,
  voiceAgent,
} from '../../db/schema';
import type { Recommendation } from '../prescreen/engine';
import type { DemoCityKey } from './seed-data';

export const DEMO_ORGANIZATION_NAME = 'Demo Research Site';
export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MINUTE = 60_000;
export const COORDINATOR = 'Demo Coordinator';

export interface DemoSeedOptions {
  /** How many candidates (default 3,000; SEED_CANDIDATES for the CLI). */
  candidates?: number;
  /** "Today" for the demo's dates (default: now). */
  now?: Date;
  /** The random generator's seed: same seed, same now, same data. */
  seed?: number;
  /** Who asked (audited); null for the CLI. */
  actorUserId?: string | null;
}

/** Seeded choices: every draw comes from one generator, so the order of the draws is part of the output. */
export class Dice {
  constructor(readonly next: () => number) {}
  chance(p: number) {
    return this.next() < p;
  }
  int(min: number, max: number) {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  between(min: number, max: number) {
    return min + this.next() * (max - min);
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  weighted<T>(list: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    let at = this.next() * total;
    for (let i = 0; i < list.length; i++) {
      at -= weights[i];
      if (at < 0) return list[i];
    }
    return list[list.length - 1];
  }
  /** A v4-shaped UUID, so reruns give the same ids. */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

export type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

export interface DemoData {
  trials: Array<Insert<typeof trial>>;
  criteria: Array<Insert<typeof trialCriterion>>;
  forms: Array<Insert<typeof prescreenForm>>;
  formVersions: Array<Insert<typeof prescreenFormVersion>>;
  voiceAgents: Array<Insert<typeof voiceAgent>>;
  chatAgents: Array<Insert<typeof chatAgent>>;
  candidates: Array<Insert<typeof candidate>>;
  links: Array<Insert<typeof candidateTrial>>;
  contactEvents: Array<Insert<typeof contactEvent>>;
  results: Array<Insert<typeof prescreenResult>>;
  bookings: Array<Insert<typeof booking>>;
  calls: Array<Insert<typeof call>>;
  sms: Array<Insert<typeof smsMessage>>;
  conversations: Array<Insert<typeof chatConversation>>;
  chatMessages: Array<Insert<typeof chatMessage>>;
  activity: ActivityEntry[];
  /** Referral notes (decision 132), stored as clinical notes and read by the note reader when written. */
  notes: Array<{ id: string; candidateId: string; body: string; createdAt: Date }>;
}

/** The builder's state: the generators, the organization, the demo's time span, the rows so far. */
export interface SeedContext {
  dice: Dice;
  /** The referral notes' own generator, so adding them left the other rows as they were. */
  noteDice: Dice;
  org: string;
  /** The start of the demo's history and "now", in epoch milliseconds. */
  start: number;
  end: number;
  /** "now" as a date (YYYY-MM-DD), for the prescreen engine's age arithmetic. */
  today: string;
  data: DemoData;
  /** Booked visit slots (trial|site|time), so no two visits share one. */
  slots: Set<string>;
}

export interface DemoSite extends TrialSite {
  key: DemoCityKey;
  startsAt: number;
  started: boolean;
  weight: number;
}

export type AnswerSample = { answers: unknown[]; evaluations: unknown[]; reasons: string[] };

export interface DemoTrialBuild {
  id: string;
  index: number;
  status: 'draft' | 'recruiting' | 'paused' | 'closed';
  recruitingFrom: number;
  recruitingUntil: number;
  sites: DemoSite[];
  formId: string;
  formVersionId: string;
  voiceAgentId: string | null;
  chatAgentId: string | null;
  blocks: StudyBlock[];
  answers: Map<Recommendation, AnswerSample[]>;
}

/** One person while their history is written: who they are, where they head, and where they have got to. */
export interface DemoPerson {
  id: string;
  trial: DemoTrialBuild;
  site: DemoSite;
  /** The status they head for, and the steps on the way that happened before now. */
  target: CandidateStatus;
  steps: Array<{ status: CandidateStatus; at: number }>;
  /** Where they stand: the last step, held back when an enrollment's visit is still ahead. */
  status: CandidateStatus;
  firstName: string;
  phone: string | null;
  language: 'en' | 'es';
  contactChannel: 'sms' | 'call';
  prescreenChannel: 'call' | 'chat';
  createdMs: number;
  /** The status before the step being written, and the prescreen result once there is one. */
  previous: CandidateStatus;
  resultId: string | null;
  resultAt: number;
}

/** Adds an activity event of the demo organization. */
export function addActivity(ctx: SeedContext, entry: Omit<ActivityEntry, 'organizationId'> & { occurredAt: Date }) {
  ctx.data.activity.push({ organizationId: ctx.org, ...entry });
}
