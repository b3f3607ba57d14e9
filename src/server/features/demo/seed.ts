/**
 * The demo organization's data (decision 033): "Demo Research Site" (its name contains "demo", so global admins'
 * default lists leave it out) with four trials in the shape of ClinicalTrials.gov records, each with 5-6 sites in
 * US cities, and ~3,000 synthetic candidates at those sites taken through the funnel with the rows each step
 * leaves: prescreen forms and results (reviewed, some overridden), calls, SMS, chats, bookings, and the matching
 * activity events, so the dashboards and the sponsor demo have numbers.
 *
 * Deterministic from a seed; dates are relative to `now` (the last ~8 months, busier towards today) so the
 * default 30-day dashboard shows activity whatever the day. Everything is built in memory, then inserted in
 * batches inside one `runAsOrganization` transaction (row security on, the demo organization only).
 */
import { seededRandom } from '../../seeded-random';
import { and, count, eq, inArray } from 'drizzle-orm';
import { CANDIDATE_STATUSES, type CandidateStatus } from '../../../contract/candidates';
import type { StudyBlock } from '../../../contract/prescreen-forms';
import type { TrialSite, TrialStatusChange } from '../../../contract/trials';
import { type ActivityEntry, candidateActivitySource, recordActivity, reviewAgreement } from '../../activity';
import { recordAudit } from '../../audit';
import type { Database } from '../../db/client';
import {
  activityDaily,
  activityEvent,
  activityKindDaily,
  activityMonthly,
  activityTotal,
  booking,
  call,
  callback,
  callEvent,
  candidate,
  candidateFact,
  candidateNote,
  candidateTrial,
  chatAgent,
  chatConversation,
  chatMessage,
  contactEvent,
  enrolmentMonthly,
  prescreenForm,
  prescreenFormVersion,
  prescreenResult,
  prescreenResultMonthly,
  processingRun,
  processingRunItem,
  sequence,
  sequenceEnrollment,
  sequenceStepRun,
  sequenceVersion,
  smsMessage,
  timeToResultMonthly,
  timeToResultTotal,
  trial,
  trialCriterion,
  trialMatch,
  voiceAgent,
} from '../../db/schema';
import { runAsOrganization, type Transaction } from '../../db/scoped';
import { systemDb } from '../../db/system';
import { findOrganizationBySlug, insertOrganization } from '../../tenancy/organizations';
import { storeClinicalNotes } from '../matching/facts';
import { generateStudyBlocks } from '../prescreen-forms/generator';
import { evaluatePrescreen, type RawAnswer, type Recommendation } from '../prescreen/engine';
import {
  AREA_CODES,
  DEMO_CITIES,
  DEMO_ETHNICITIES,
  DEMO_RACES,
  DEMO_TRIALS,
  type DemoCityKey,
  FIRST_NAMES,
  FIRST_NAMES_HISPANIC,
  LAST_NAMES,
  LAST_NAMES_HISPANIC,
  PARTNER_SITE_NAMES,
  PRESCREEN_NOTES,
  SOURCES,
} from './seed-data';
import { referralNote } from './referral-notes';

export const DEMO_ORGANIZATION_NAME = 'Demo Research Site';
export const DEMO_ORGANIZATION_SLUG = 'demo-research-site';
export const DEFAULT_DEMO_CANDIDATES = 3000;
const DEFAULT_SEED = 20240601;
/** The referral notes' generator: the demo's seed plus this. */
const REFERRAL_NOTE_SEED_OFFSET = 7919;
/** People whose referral came with a note. */
const REFERRAL_NOTE_SHARE = 0.9;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** How far back the demo's history reaches. */
const HISTORY_DAYS = 240;
const COORDINATOR = 'Demo Coordinator';

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

/** What the demo organization holds: the status tile of /admin/demo, and what tests compare. */
export interface DemoCounts {
  trials: number;
  sites: number;
  candidates: number;
  prescreenForms: number;
  prescreenResults: number;
  bookings: number;
  calls: number;
  smsMessages: number;
  chatConversations: number;
  voiceAgents: number;
  chatAgents: number;
  activityEvents: number;
}

// ---- deterministic randomness ----

class Dice {
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

// ---- the funnel ----

/** The path through the funnel that ends in each status. */
const PATHS: Record<CandidateStatus, CandidateStatus[]> = {
  new: [],
  contacted: ['contacted'],
  prescreening: ['contacted', 'prescreening'],
  prescreen_passed: ['contacted', 'prescreening', 'prescreen_passed'],
  prescreen_failed: ['contacted', 'prescreening', 'prescreen_failed'],
  visit_scheduled: ['contacted', 'prescreening', 'prescreen_passed', 'visit_scheduled'],
  enrolled: ['contacted', 'prescreening', 'prescreen_passed', 'visit_scheduled', 'enrolled'],
  not_interested: ['contacted', 'not_interested'],
  unreachable: ['unreachable'],
  do_not_contact: ['contacted', 'do_not_contact'],
};
/** Rough funnel shape of the statuses candidates head for (recent ones stop earlier: there was no time yet). */
const WEIGHTS: Record<CandidateStatus, number> = {
  new: 14,
  contacted: 16,
  prescreening: 9,
  prescreen_passed: 9,
  prescreen_failed: 11,
  visit_scheduled: 6,
  enrolled: 6,
  not_interested: 9,
  unreachable: 10,
  do_not_contact: 3,
};
/** Days from the previous step to each step (min, max). */
const STEP_DAYS: Record<CandidateStatus, [number, number]> = {
  new: [0, 0],
  contacted: [0.1, 2],
  prescreening: [0.5, 5],
  prescreen_passed: [0.02, 0.5],
  prescreen_failed: [0.02, 0.5],
  visit_scheduled: [0.5, 4],
  enrolled: [3, 12],
  not_interested: [0.2, 3],
  unreachable: [1, 6],
  do_not_contact: [0.2, 5],
};

/** Standard-time UTC offsets of the demo cities' zones (visits are booked in local working hours). */
const ZONE_OFFSET: Record<string, number> = {
  'America/New_York': -5,
  'America/Chicago': -6,
  'America/Denver': -7,
  'America/Phoenix': -7,
  'America/Los_Angeles': -8,
};

const SMS_SEGMENT_USD = 0.0079;
const CALL_MINUTE_USD = 0.12;

interface DemoSite extends TrialSite {
  key: DemoCityKey;
  startsAt: number;
  started: boolean;
  weight: number;
}

interface DemoTrialBuild {
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
  answers: Map<Recommendation, Array<{ answers: unknown[]; evaluations: unknown[]; reasons: string[] }>>;
}

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

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

/** Random answers to a form's patient questions, run through the engine, kept by recommendation. */
function answerBank(dice: Dice, blocks: StudyBlock[], criteria: Array<{ id: string; kind: 'inclusion' | 'exclusion'; text: string }>, today: string) {
  const bank = new Map<Recommendation, Array<{ answers: unknown[]; evaluations: unknown[]; reasons: string[] }>>();
  // Patient questions, and the site items staff record on the result.
  const questions = blocks.flatMap((block) => block.questions);
  const kinds = new Map(criteria.map((criterion) => [criterion.id, criterion.kind]));
  const year = Number(today.slice(0, 4));
  for (let attempt = 0; attempt < 240; attempt++) {
    const answers: RawAnswer[] = [];
    for (const question of questions) {
      if (question.required === false && dice.chance(0.4)) continue;
      const predicates = question.criterionLinks.map((link) => link.when);
      let value: unknown;
      switch (question.type) {
        case 'yes_no': {
          // Mostly the answer an eligible person gives, so every recommendation turns up.
          const link = question.criterionLinks.find((item) => item.when.op === 'is_yes' || item.when.op === 'is_no');
          const yesSays = link ? (link.when.op === 'is_yes' ? link.then : link.otherwise) : undefined;
          const kind = link ? kinds.get(link.criterionId) : undefined;
          const eligibleIfYes =
            yesSays === 'review' || yesSays === undefined ? dice.chance(0.5) : kind === 'exclusion' ? yesSays === 'not_met' : yesSays === 'met';
          value = dice.chance(0.8) ? eligibleIfYes : !eligibleIfYes;
          break;
        }
        case 'number': {
          const thresholds = predicates.flatMap((p) =>
            'value' in p && typeof p.value === 'number' ? [p.value, ...('upper' in p && typeof p.upper === 'number' ? [p.upper] : [])] : [],
          );
          const base = thresholds.length ? dice.pick(thresholds) : 10;
          value = Math.round(base * dice.between(0.75, 1.25) * 10) / 10;
          break;
        }
        case 'date':
          value = `${year - dice.int(16, 80)}-${String(dice.int(1, 12)).padStart(2, '0')}-${String(dice.int(1, 28)).padStart(2, '0')}`;
          break;
        case 'single_choice':
          value = dice.pick((question.options ?? []).map((option) => option.value).concat(question.options?.length ? [] : ['yes']));
          break;
        case 'multiple_choice':
          value = [dice.pick((question.options ?? []).map((option) => option.value).concat(question.options?.length ? [] : ['yes']))];
          break;
        default:
          value = dice.pick(['Evenings after 5pm', 'Mornings', 'Any time on weekdays']);
      }
      answers.push({ questionId: question.id, value });
    }
    try {
      const outcome = evaluatePrescreen({ blocks, criteria, answers, today });
      const list = bank.get(outcome.recommendation) ?? [];
      if (list.length < 12) list.push({ answers: outcome.answers, evaluations: outcome.evaluations, reasons: outcome.reasons });
      bank.set(outcome.recommendation, list);
    } catch {
      // An answer that does not fit the form: try another.
    }
  }
  if (!bank.has('INCONCLUSIVE')) {
    const outcome = evaluatePrescreen({ blocks, criteria, answers: [], today });
    bank.set(outcome.recommendation === 'INCONCLUSIVE' ? 'INCONCLUSIVE' : outcome.recommendation, [
      { answers: outcome.answers, evaluations: outcome.evaluations, reasons: outcome.reasons },
    ]);
  }
  return bank;
}

/** Builds every row of the demo organization in memory (no I/O). Same options, same rows. */
export function buildDemoData(organizationId: string, options: DemoSeedOptions = {}): DemoData {
  const dice = new Dice(seededRandom(options.seed ?? DEFAULT_SEED));
  // The referral notes draw from their own generator: the rest of the demo's rows stay as they were.
  const noteDice = new Dice(seededRandom((options.seed ?? DEFAULT_SEED) + REFERRAL_NOTE_SEED_OFFSET));
  const candidateCount = Math.max(0, Math.floor(options.candidates ?? DEFAULT_DEMO_CANDIDATES));
  const end = (options.now ?? new Date()).getTime();
  const start = end - HISTORY_DAYS * DAY;
  const today = new Date(end).toISOString().slice(0, 10);
  const org = organizationId;
  const data: DemoData = {
    trials: [],
    criteria: [],
    forms: [],
    formVersions: [],
    voiceAgents: [],
    chatAgents: [],
    candidates: [],
    links: [],
    contactEvents: [],
    results: [],
    bookings: [],
    calls: [],
    sms: [],
    conversations: [],
    chatMessages: [],
    activity: [],
    notes: [],
  };
  const activity = (entry: Omit<ActivityEntry, 'organizationId'> & { occurredAt: Date }) => data.activity.push({ organizationId: org, ...entry });

  // ---- trials, sites, forms, agents ----
  const trials: DemoTrialBuild[] = DEMO_TRIALS.map((definition, index) => {
    const { criteria, siteCities, ...fields } = definition;
    const id = dice.uuid();
    const createdAt = start - (20 - index * 4) * DAY;
    const recruitingFrom = createdAt + 2 * DAY;
    const pausedAt = end - 50 * DAY;
    const recruitingUntil = fields.status === 'paused' ? pausedAt : end;
    const sites: DemoSite[] = siteCities.map((key, position) => {
      const city = DEMO_CITIES[key];
      const last = position === siteCities.length - 1;
      return {
        id: dice.uuid(),
        key,
        isOwnSite: position === 0,
        timeZoneSource: 'manual',
        name: PARTNER_SITE_NAMES[key],
        address: city.street,
        city: city.city,
        region: city.region,
        postalCode: `${city.zipPrefix}${String(10 + position).padStart(2, '0')}`,
        country: 'United States',
        timeZone: city.timeZone,
        latitude: city.latitude,
        longitude: city.longitude,
        // Sites open one after another; the last one has not started (no candidates yet).
        startsAt: recruitingFrom + position * 28 * DAY,
        started: !last,
        weight: position === 0 ? 3 : 2.4 - position * 0.3,
      };
    });
    const history: TrialStatusChange[] = [
      { from: null, to: 'draft', at: new Date(createdAt).toISOString(), byUserId: null },
      { from: 'draft', to: 'recruiting', at: new Date(recruitingFrom).toISOString(), byUserId: null },
      ...(fields.status === 'paused' ? [{ from: 'recruiting' as const, to: 'paused' as const, at: new Date(pausedAt).toISOString(), byUserId: null }] : []),
    ];
    data.trials.push({
      ...fields,
      id,
      organizationId: org,
      sites: sites.map(({ key: _key, startsAt: _startsAt, started: _started, weight: _weight, ...site }) => site),
      statusHistory: history,
      createdAt: new Date(createdAt),
      updatedAt: new Date(fields.status === 'paused' ? pausedAt : recruitingFrom),
    });
    for (const change of history.slice(1))
      activity({ kind: 'trial_status_changed', source: 'manual', trialId: id, label: change.to, occurredAt: new Date(change.at) });

    const criterionRows = criteria.map((criterion, position) => ({
      id: dice.uuid(),
      organizationId: org,
      trialId: id,
      position,
      kind: criterion.kind,
      text: criterion.text,
      rule: criterion.rule ?? null,
      ruleSource: criterion.rule ? ('structured' as const) : null,
      needsReview: !criterion.rule,
      createdAt: new Date(createdAt),
      updatedAt: new Date(createdAt),
    }));
    data.criteria.push(...criterionRows);

    const blocks = generateStudyBlocks({ criteria: criterionRows.map((row) => ({ ...row, population: null })), siteName: sites[0].name }).blocks;
    const formId = dice.uuid();
    const formVersionId = dice.uuid();
    const publishedAt = new Date(createdAt + DAY);
    data.forms.push({
      id: formId,
      organizationId: org,
      trialId: id,
      name: `${fields.publicTitle} prescreen`,
      status: 'published',
      currentVersion: 1,
      publishedAt,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
    data.formVersions.push({ id: formVersionId, organizationId: org, formId, version: 1, blocks, createdAt: publishedAt });

    const voiceAgentId = dice.uuid();
    data.voiceAgents.push({
      id: voiceAgentId,
      organizationId: org,
      name: `${fields.publicTitle} - prescreen calls`,
      type: 'PRESCREEN',
      trialId: id,
      prescreenFormId: formId,
      languages: ['en', 'es'],
      firstMessage: {
        en: `Hi, this is Ava calling from ${DEMO_ORGANIZATION_NAME} about the ${fields.publicTitle.toLowerCase()} study you asked about. Do you have a few minutes?`,
        es: `Hola, le llama Ava de ${DEMO_ORGANIZATION_NAME} sobre el estudio por el que preguntó. ¿Tiene unos minutos?`,
      },
      voicemailMessage: {
        en: `Hi, this is Ava from ${DEMO_ORGANIZATION_NAME}. Please call us back about the study when you can.`,
        es: `Hola, soy Ava de ${DEMO_ORGANIZATION_NAME}. Por favor, devuélvanos la llamada sobre el estudio.`,
      },
      // Calls go through the organization's one active prescreen agent: the first trial's is the demo's.
      active: index === 0,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
    const chatAgentId = dice.uuid();
    data.chatAgents.push({
      id: chatAgentId,
      organizationId: org,
      name: `${fields.publicTitle} - chat`,
      type: 'PRESCREEN',
      trialId: id,
      prescreenFormId: formId,
      greeting: {
        en: `Hello! I can tell you about the ${fields.publicTitle.toLowerCase()} study and check whether it may suit you. It takes about 5 minutes.`,
        es: 'Hola. Puedo contarle sobre el estudio y ver si podría ser adecuado para usted. Toma unos 5 minutos.',
      },
      closingMessage: {
        en: 'Thank you! A coordinator will review your answers and contact you.',
        es: 'Gracias. Un coordinador revisará sus respuestas y se pondrá en contacto con usted.',
      },
      languages: ['en', 'es'],
      requirePhoneVerification: false,
      nextStep: 'callback',
      active: fields.status === 'recruiting',
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
    const answers = answerBank(
      dice,
      blocks,
      criterionRows.map((row) => ({ id: row.id, kind: row.kind, text: row.text })),
      today,
    );
    return { id, index, status: fields.status, recruitingFrom, recruitingUntil, sites, formId, formVersionId, voiceAgentId, chatAgentId, blocks, answers };
  });

  // ---- candidates ----
  const trialWeights = trials.map((item) => [0.33, 0.27, 0.22, 0.18][item.index] ?? 0.1);
  const weighted = CANDIDATE_STATUSES.flatMap((status) => Array.from({ length: WEIGHTS[status] }, () => status));
  const slots = new Set<string>();
  const ourPhone = '+12175550100';
  const uniqueSlot = (trialId: string, siteId: string, at: number) => {
    let time = at;
    while (slots.has(`${trialId}|${siteId}|${time}`)) time += HOUR;
    slots.add(`${trialId}|${siteId}|${time}`);
    return time;
  };
  /** A local working hour (9:00-16:00) at the site, on the day of `at`, in UTC. */
  const visitTime = (site: DemoSite, at: number) => {
    const day = Math.floor(at / DAY) * DAY;
    return day + (dice.int(9, 16) - (ZONE_OFFSET[site.timeZone!] ?? -6)) * HOUR;
  };

  for (let i = 0; i < candidateCount; i++) {
    const trialBuild = i < CANDIDATE_STATUSES.length ? trials[0] : dice.weighted(trials, trialWeights);
    const started = trialBuild.sites.filter((site) => site.started);
    const site = dice.weighted(
      started,
      started.map((item) => item.weight),
    );
    const city = DEMO_CITIES[site.key];
    const earliest = Math.max(site.startsAt, start);
    const latest = trialBuild.recruitingUntil - HOUR;
    // Busier towards today: the density of sqrt(u) grows linearly.
    // Every status once among the first candidates: early enough to have reached it.
    const createdMs = Math.floor(earliest + (latest - earliest) * (i < CANDIDATE_STATUSES.length ? 0.3 * dice.next() : Math.sqrt(dice.next())));
    const target: CandidateStatus = i < CANDIDATE_STATUSES.length ? CANDIDATE_STATUSES[i] : dice.pick(weighted);
    // Step times; a step that would land after now has not happened yet: the candidate stops before it.
    const steps: Array<{ status: CandidateStatus; at: number }> = [];
    let cursor = createdMs;
    for (const status of PATHS[target]) {
      const [min, max] = STEP_DAYS[status];
      const at = Math.floor(cursor + dice.between(min, max) * DAY);
      if (at >= end - 10 * MINUTE && i >= CANDIDATE_STATUSES.length) break;
      steps.push({ status, at: Math.min(at, end - 10 * MINUTE) });
      cursor = at;
    }
    let status: CandidateStatus = steps.length ? steps[steps.length - 1].status : 'new';

    const hispanic = dice.chance(city.hispanicShare);
    const race = dice.weighted(DEMO_RACES, city.raceWeights);
    const spanish = hispanic ? dice.chance(0.45) : dice.chance(0.01);
    const language = spanish ? 'es' : 'en';
    const firstName = hispanic && dice.chance(0.8) ? dice.pick(FIRST_NAMES_HISPANIC) : dice.pick(FIRST_NAMES);
    const lastName = hispanic && dice.chance(0.8) ? dice.pick(LAST_NAMES_HISPANIC) : dice.pick(LAST_NAMES);
    const definition = DEMO_TRIALS[trialBuild.index];
    const female = definition.sex === 'female' ? dice.chance(0.95) : dice.chance(0.53);
    const minAge = definition.minimumAgeYears ?? 18;
    const maxAge = definition.maximumAgeYears ?? 85;
    const age = dice.chance(0.85) ? dice.int(minAge, maxAge) : dice.int(18, 85);
    const birthYear = new Date(end).getUTCFullYear() - age - 1;
    const phone = i < AREA_CODES.length * 100 ? `+1${AREA_CODES[Math.floor(i / 100) % AREA_CODES.length]}5550${String(100 + (i % 100)).slice(-3)}` : null;
    const source = dice.pick(SOURCES);
    const dnc = status === 'do_not_contact';
    const consentSms = !dnc && dice.chance(0.8);
    const consentCalls = !dnc && dice.chance(0.85);
    const id = dice.uuid();
    const createdAt = new Date(createdMs);
    const lastAt = new Date(steps.length ? steps[steps.length - 1].at : createdMs);
    const contactChannel: 'sms' | 'call' = consentSms && dice.chance(0.7) ? 'sms' : 'call';
    const prescreenChannel: 'call' | 'chat' = dice.chance(0.6) ? 'call' : 'chat';
    const notes =
      steps.some((step) => step.status === 'prescreening') && dice.chance(0.5)
        ? [{ text: dice.pick(PRESCREEN_NOTES), authorUserId: null, authorName: COORDINATOR, createdAt: new Date(steps[1].at + HOUR).toISOString() }]
        : [];

    data.candidates.push({
      id,
      organizationId: org,
      firstName,
      lastName,
      phone,
      email: i % 5 === 4 ? null : `${firstName}.${lastName}.${i}@demo.example`.toLowerCase(),
      dateOfBirth: `${birthYear}-${String(dice.int(1, 12)).padStart(2, '0')}-${String(dice.int(1, 28)).padStart(2, '0')}`,
      sex: female ? 'female' : 'male',
      addressLine: `${dice.int(10, 9899)} ${dice.pick(['Oak', 'Maple', 'Cedar', 'Elm', 'Park', 'Lake', 'Hill', 'Washington', 'Lincoln'])} ${dice.pick(['Street', 'Avenue', 'Drive', 'Road'])}`,
      city: city.city,
      region: city.region,
      postalCode: `${city.zipPrefix}${String(dice.int(1, 59)).padStart(2, '0')}`,
      country: 'US',
      timeZone: city.timeZone,
      preferredLanguage: language,
      source,
      customFields: { ethnicity: hispanic ? DEMO_ETHNICITIES[0] : DEMO_ETHNICITIES[1], race, siteId: site.id },
      consentSms,
      consentSmsSource: consentSms ? 'Paper consent form at the clinic' : null,
      consentSmsAt: consentSms ? createdAt : null,
      consentCalls,
      consentCallsSource: consentCalls ? 'Paper consent form at the clinic' : null,
      consentCallsAt: consentCalls ? createdAt : null,
      doNotContact: dnc,
      doNotContactAt: dnc ? lastAt : null,
      doNotContactReason: dnc ? 'Requested by candidate' : null,
      status,
      prescreenNotes: notes,
      createdAt,
      updatedAt: lastAt,
    });
    data.links.push({ candidateId: id, trialId: trialBuild.id, organizationId: org, linkedAt: createdAt });
    // Most referrals come with a letter; the note reader reads it when the demo is written.
    if (noteDice.chance(REFERRAL_NOTE_SHARE))
      data.notes.push({ id: noteDice.uuid(), candidateId: id, body: referralNote(noteDice.next, { trialIndex: trialBuild.index, age, female }), createdAt });
    data.contactEvents.push({
      organizationId: org,
      candidateId: id,
      kind: 'created',
      summary: 'Added (demo data)',
      details: { source: 'seed' },
      actorLabel: 'System',
      occurredAt: createdAt,
    });
    activity({ kind: 'candidate_created', source: candidateActivitySource(source), trialId: trialBuild.id, candidateId: id, occurredAt: createdAt });
    if (notes.length)
      data.contactEvents.push({
        organizationId: org,
        candidateId: id,
        kind: 'note',
        summary: 'Prescreen note added',
        details: { noteIndex: 0 },
        actorLabel: COORDINATOR,
        occurredAt: new Date(notes[0].createdAt),
      });

    const base = { organizationId: org, candidateId: id };
    /** A screening visit booked at the candidate's site, with its booking activity. */
    const bookVisit = (bookingId: string, bookedAt: number, visitAt: number, status: 'scheduled' | 'completed' | 'no_show') => {
      data.bookings.push({
        id: bookingId,
        organizationId: org,
        candidateId: id,
        trialId: trialBuild.id,
        prescreenResultId: resultId,
        siteId: site.id,
        siteName: site.name,
        siteCity: site.city,
        siteTimeZone: site.timeZone!,
        startsAt: new Date(visitAt),
        durationMinutes: 60,
        status,
        confirmationSms: 'sent',
        createdAt: new Date(bookedAt),
      });
      activity({
        kind: 'visit_booked',
        source: 'manual',
        trialId: trialBuild.id,
        candidateId: id,
        label: site.id,
        referenceId: bookingId,
        occurredAt: new Date(bookedAt),
      });
    };
    /** What became of the visit, an hour after it started: in the activity and the contact history. */
    const visitOutcome = (kind: 'visit_attended' | 'visit_no_show', bookingId: string, visitAt: number, summary: string) => {
      const at = new Date(visitAt + HOUR);
      activity({ kind, source: 'manual', trialId: trialBuild.id, candidateId: id, label: site.id, referenceId: bookingId, occurredAt: at });
      data.contactEvents.push({ ...base, kind: 'booking', summary, details: { bookingId }, referenceId: bookingId, actorLabel: COORDINATOR, occurredAt: at });
    };
    const firstContact = steps[0]?.at ?? createdMs;
    const rate = (source: 'call' | 'chat' | 'sms', at: number, agentId: string | null, referenceId: string) => {
      // Ratings lean positive, as real ones do.
      const value = dice.weighted([5, 4, 3, 2, 1], [48, 30, 12, 6, 4]);
      activity({ kind: 'satisfaction_rated', source, trialId: trialBuild.id, candidateId: id, value, agentId, referenceId, occurredAt: new Date(at) });
    };
    const sendSms = (at: number, body: string, templateKey: string, purpose: 'transactional' | 'marketing') => {
      const smsId = dice.uuid();
      const segments = Math.ceil(body.length / 153) || 1;
      data.sms.push({
        id: smsId,
        ...base,
        direction: 'outbound',
        toPhone: phone ?? '+12175550199',
        fromPhone: ourPhone,
        body,
        status: 'delivered',
        purpose,
        provider: 'simulator',
        templateKey,
        createdAt: new Date(at),
        updatedAt: new Date(at + MINUTE),
      });
      data.contactEvents.push({
        ...base,
        kind: 'sms',
        summary: 'SMS sent',
        details: { direction: 'outbound', templateKey },
        referenceId: smsId,
        actorLabel: 'System',
        occurredAt: new Date(at),
      });
      activity({ kind: 'sms_sent', source: 'sms', trialId: trialBuild.id, candidateId: id, label: purpose, referenceId: smsId, occurredAt: new Date(at) });
      activity({
        kind: 'sms_delivered',
        source: 'sms',
        trialId: trialBuild.id,
        candidateId: id,
        label: purpose,
        referenceId: smsId,
        occurredAt: new Date(at + MINUTE),
      });
      activity({
        kind: 'spend',
        source: 'sms',
        trialId: trialBuild.id,
        candidateId: id,
        label: 'sms_segments',
        value: Math.round(segments * SMS_SEGMENT_USD * 10_000) / 10_000,
        referenceId: smsId,
        occurredAt: new Date(at),
      });
      return smsId;
    };
    const receiveSms = (at: number, body: string) => {
      const smsId = dice.uuid();
      data.sms.push({
        id: smsId,
        ...base,
        direction: 'inbound',
        toPhone: ourPhone,
        fromPhone: phone ?? '+12175550199',
        body,
        status: 'received',
        purpose: 'reply',
        provider: 'simulator',
        createdAt: new Date(at),
        updatedAt: new Date(at),
      });
      data.contactEvents.push({
        ...base,
        kind: 'sms',
        summary: 'SMS received',
        details: { direction: 'inbound' },
        referenceId: smsId,
        actorLabel: 'Candidate',
        occurredAt: new Date(at),
      });
      activity({ kind: 'sms_replied', source: 'sms', trialId: trialBuild.id, candidateId: id, referenceId: smsId, occurredAt: new Date(at) });
    };
    const placeCall = (at: number, outcome: string, seconds: number, extra: Partial<Insert<typeof call>> = {}) => {
      const callId = dice.uuid();
      const answered = ['completed', 'declined', 'hung_up'].includes(outcome);
      const cost = Math.round(Math.max(1, Math.ceil(seconds / 60)) * CALL_MINUTE_USD * 10_000) / 10_000;
      data.calls.push({
        id: callId,
        ...base,
        voiceAgentId: trialBuild.voiceAgentId,
        type: 'PRESCREEN',
        direction: 'outbound',
        status: 'ended',
        outcome,
        provider: 'simulator',
        toPhone: phone,
        fromPhone: ourPhone,
        language,
        startedAt: new Date(at),
        endedAt: new Date(at + seconds * 1000),
        durationSeconds: seconds,
        costUsd: cost.toFixed(4),
        transcript: [],
        createdAt: new Date(at - 5000),
        updatedAt: new Date(at + seconds * 1000),
        ...extra,
      });
      data.contactEvents.push({
        ...base,
        kind: 'call',
        summary: `Call ended: ${outcome}`,
        details: { outcome, durationSeconds: seconds },
        referenceId: callId,
        actorLabel: 'Voice agent',
        occurredAt: new Date(at + seconds * 1000),
      });
      const common = { source: 'call' as const, trialId: trialBuild.id, candidateId: id, agentId: trialBuild.voiceAgentId, referenceId: callId };
      activity({ ...common, kind: 'call_placed', occurredAt: new Date(at) });
      if (answered) activity({ ...common, kind: 'call_answered', occurredAt: new Date(at + 8000) });
      activity({ ...common, kind: 'call_ended', label: outcome, value: seconds, occurredAt: new Date(at + seconds * 1000) });
      activity({ ...common, kind: 'spend', label: 'call_minutes', value: cost, occurredAt: new Date(at + seconds * 1000) });
      return callId;
    };
    const chatCommon = (conversationId: string) => ({
      source: 'chat' as const,
      trialId: trialBuild.id,
      candidateId: id,
      agentId: trialBuild.chatAgentId,
      referenceId: conversationId,
    });
    const changeStatus = (from: CandidateStatus, to: CandidateStatus, at: number, source: 'sms' | 'call' | 'chat' | 'manual') => {
      data.contactEvents.push({
        ...base,
        kind: 'status_change',
        summary: `Status: ${from} -> ${to}`,
        details: { from, to },
        actorLabel: source === 'manual' ? COORDINATOR : 'System',
        occurredAt: new Date(at),
      });
      activity({ kind: 'status_changed', source, trialId: trialBuild.id, candidateId: id, label: to, occurredAt: new Date(at) });
    };

    let previous: CandidateStatus = 'new';
    let resultId: string | null = null;
    let resultAt = 0;
    for (const step of steps) {
      const at = step.at;
      switch (step.status) {
        case 'contacted': {
          if (contactChannel === 'sms') {
            sendSms(
              at,
              language === 'es'
                ? `Hola ${firstName}, ${DEMO_ORGANIZATION_NAME} tiene un estudio que podría interesarle. Responda SI para saber más o STOP para no recibir mensajes.`
                : `Hi ${firstName}, ${DEMO_ORGANIZATION_NAME} has a study that may interest you. Reply YES to learn more or STOP to opt out.`,
              'demo_outreach',
              'marketing',
            );
            if (target !== 'do_not_contact' && target !== 'not_interested' && dice.chance(0.55))
              receiveSms(at + dice.int(5, 600) * MINUTE, language === 'es' ? 'Sí, me interesa' : 'Yes, tell me more');
          } else {
            placeCall(at, 'completed', dice.int(60, 180));
          }
          changeStatus(previous, 'contacted', at + MINUTE, contactChannel);
          break;
        }
        case 'prescreening': {
          changeStatus(previous, 'prescreening', at, prescreenChannel);
          if (status === 'prescreening' && prescreenChannel === 'chat' && dice.chance(0.5)) {
            // Started a chat, not finished yet.
            const conversationId = dice.uuid();
            data.conversations.push({
              id: conversationId,
              organizationId: org,
              chatAgentId: trialBuild.chatAgentId,
              candidateId: id,
              status: 'ONGOING',
              language,
              tokenHash: `demo-${conversationId}`,
              phone,
              phoneVerifiedAt: new Date(at),
              state: {},
              createdAt: new Date(at),
              updatedAt: new Date(at + 3 * MINUTE),
            });
            data.chatMessages.push({
              organizationId: org,
              conversationId,
              role: 'agent',
              text: 'Hello! I can check whether the study may suit you. Shall we start?',
              createdAt: new Date(at),
            });
            data.chatMessages.push({
              organizationId: org,
              conversationId,
              role: 'visitor',
              text: language === 'es' ? 'Sí' : 'Yes',
              createdAt: new Date(at + MINUTE),
            });
            activity({ ...chatCommon(conversationId), kind: 'chat_started', occurredAt: new Date(at) });
          }
          break;
        }
        case 'prescreen_passed':
        case 'prescreen_failed': {
          const passed = step.status === 'prescreen_passed';
          const goesFurther = target === 'visit_scheduled' || target === 'enrolled';
          // What the AI said, and whether a reviewer looked (all who went on to a visit were approved).
          const reviewed = goesFurther || dice.chance(passed ? 0.65 : 0.55);
          const override = reviewed && dice.chance(0.1);
          let recommendation: Recommendation;
          if (passed) recommendation = override ? dice.pick(['FAIL', 'INCONCLUSIVE'] as const) : dice.chance(0.75) ? 'PASS' : 'POTENTIAL';
          else recommendation = override ? 'POTENTIAL' : dice.chance(0.85) ? 'FAIL' : 'INCONCLUSIVE';
          const bank =
            trialBuild.answers.get(recommendation) ?? trialBuild.answers.get(passed ? 'POTENTIAL' : 'FAIL') ?? trialBuild.answers.get('INCONCLUSIVE')!;
          const sample = dice.pick(bank);
          const aiRecommendation = trialBuild.answers.has(recommendation)
            ? recommendation
            : passed
              ? trialBuild.answers.has('POTENTIAL')
                ? 'POTENTIAL'
                : 'INCONCLUSIVE'
              : trialBuild.answers.has('FAIL')
                ? 'FAIL'
                : 'INCONCLUSIVE';
          resultId = dice.uuid();
          resultAt = at;
          const sourceAgent = prescreenChannel === 'call' ? trialBuild.voiceAgentId : trialBuild.chatAgentId;
          let sourceId: string;
          if (prescreenChannel === 'call') {
            const seconds = dice.int(240, 840);
            sourceId = placeCall(at - seconds * 1000, 'completed', seconds, {
              prescreenResultId: resultId,
              transcript: [
                {
                  role: 'assistant',
                  text:
                    language === 'es'
                      ? 'Hola, le llama Ava sobre el estudio. ¿Tiene unos minutos?'
                      : 'Hi, this is Ava calling about the study. Do you have a few minutes?',
                },
                { role: 'user', text: language === 'es' ? 'Sí, claro.' : 'Sure, go ahead.' },
                { role: 'assistant', text: language === 'es' ? 'Gracias. Le haré unas preguntas breves.' : 'Thank you. I will ask a few short questions.' },
                {
                  role: 'assistant',
                  text: language === 'es' ? 'Eso es todo. Un coordinador revisará sus respuestas.' : 'That is all. A coordinator will review your answers.',
                },
              ],
              // What the agent recorded, as the calls feature reads it ({ questionId: value }).
              structuredData: {
                answers: Object.fromEntries(
                  (sample.answers as Array<{ questionId: string; value: unknown }>).map((answer) => [answer.questionId, answer.value]),
                ),
              },
            });
            if (dice.chance(0.35)) rate('call', at + 2 * MINUTE, trialBuild.voiceAgentId, sourceId);
          } else {
            const conversationId = dice.uuid();
            const begun = at - dice.int(4, 15) * MINUTE;
            sourceId = conversationId;
            data.conversations.push({
              id: conversationId,
              organizationId: org,
              chatAgentId: trialBuild.chatAgentId,
              candidateId: id,
              status: 'COMPLETED',
              language,
              tokenHash: `demo-${conversationId}`,
              phone,
              phoneVerifiedAt: new Date(begun),
              state: {},
              prescreenResultId: resultId,
              completedAt: new Date(at),
              createdAt: new Date(begun),
              updatedAt: new Date(at),
            });
            data.chatMessages.push(
              {
                organizationId: org,
                conversationId,
                role: 'agent',
                text: language === 'es' ? 'Hola. ¿Empezamos con unas preguntas breves?' : 'Hello! Shall we start with a few short questions?',
                createdAt: new Date(begun),
              },
              { organizationId: org, conversationId, role: 'visitor', text: language === 'es' ? 'Sí' : 'Yes', createdAt: new Date(begun + MINUTE) },
              {
                organizationId: org,
                conversationId,
                role: 'agent',
                text:
                  language === 'es' ? 'Gracias. Un coordinador revisará sus respuestas.' : 'Thank you! A coordinator will review your answers and contact you.',
                createdAt: new Date(at),
              },
            );
            activity({ ...chatCommon(conversationId), kind: 'chat_started', occurredAt: new Date(begun) });
            activity({ ...chatCommon(conversationId), kind: 'chat_completed', occurredAt: new Date(at) });
            activity({
              ...chatCommon(conversationId),
              kind: 'spend',
              label: 'llm_tokens',
              value: Math.round(dice.between(0.004, 0.03) * 10_000) / 10_000,
              occurredAt: new Date(at),
            });
            data.contactEvents.push({
              ...base,
              kind: 'chat',
              summary: 'Chat completed',
              details: { conversationId },
              referenceId: conversationId,
              actorLabel: 'Chat agent',
              occurredAt: new Date(at),
            });
            if (dice.chance(0.4)) rate('chat', at + MINUTE, trialBuild.chatAgentId, conversationId);
          }
          const decidedAt = at + dice.int(2, 30) * HOUR;
          const decision =
            reviewed && decidedAt < end
              ? {
                  decision: passed ? 'approve' : 'reject',
                  reason: passed ? (override ? 'Coordinator confirmed eligibility by phone' : null) : 'Does not meet the criteria',
                  overrideRecommendation: override ? (passed ? 'PASS' : 'FAIL') : null,
                  overrideReason: override ? (passed ? 'Coordinator confirmed eligibility by phone' : 'Does not meet the criteria') : null,
                  decidedByUserId: null,
                  decidedByName: COORDINATOR,
                  decidedAt: new Date(decidedAt).toISOString(),
                }
              : null;
          data.results.push({
            id: resultId,
            organizationId: org,
            candidateId: id,
            trialId: trialBuild.id,
            formId: trialBuild.formId,
            formVersionId: trialBuild.formVersionId,
            sourceType: prescreenChannel,
            sourceId,
            answers: sample.answers,
            evaluations: sample.evaluations,
            aiRecommendation,
            aiReasons: sample.reasons,
            reviewStatus: decision ? (passed ? 'approved' : 'rejected') : 'pending',
            decision,
            createdAt: new Date(at),
            updatedAt: new Date(decision ? decidedAt : at),
          });
          data.contactEvents.push({
            ...base,
            kind: 'prescreen',
            summary: `Prescreen (${prescreenChannel}): ${aiRecommendation}`,
            details: { resultId, formId: trialBuild.formId, formVersion: 1, sourceType: prescreenChannel, recommendation: aiRecommendation },
            referenceId: resultId,
            actorLabel: prescreenChannel === 'call' ? 'Voice agent' : 'Chat agent',
            occurredAt: new Date(at),
          });
          activity({
            kind: 'prescreen_result',
            source: prescreenChannel,
            trialId: trialBuild.id,
            candidateId: id,
            label: aiRecommendation,
            value: Math.round(((at - firstContact) / HOUR) * 10) / 10,
            agentId: sourceAgent,
            referenceId: resultId,
            occurredAt: new Date(at),
          });
          changeStatus(previous, step.status, at + 1000, prescreenChannel);
          if (decision) {
            data.contactEvents.push({
              ...base,
              kind: 'decision',
              summary: `Prescreen ${passed ? 'approved' : 'rejected'}${override ? `; recommendation overridden: ${aiRecommendation} -> ${decision.overrideRecommendation}` : ''}`,
              details: { resultId, decision: decision.decision, aiRecommendation, overrideRecommendation: decision.overrideRecommendation },
              referenceId: resultId,
              actorLabel: COORDINATOR,
              occurredAt: new Date(decidedAt),
            });
            // As prescreen's decide() records it: agree, override or resolved (an INCONCLUSIVE decided), by the result's channel.
            const agreement = reviewAgreement(aiRecommendation, passed ? 'approve' : 'reject', decision.overrideRecommendation);
            activity({
              kind: 'review_decision',
              source: prescreenChannel,
              trialId: trialBuild.id,
              candidateId: id,
              label: agreement,
              value: agreement === 'override' ? 1 : 0,
              referenceId: resultId,
              occurredAt: new Date(decidedAt),
            });
          }
          // A few approved candidates were booked and did not come (they stay prescreen_passed).
          if (passed && !goesFurther && decision && dice.chance(0.2)) {
            const bookedAt = decidedAt + dice.int(2, 24) * HOUR;
            const visitAt = visitTime(site, bookedAt + dice.int(2, 7) * DAY);
            // Decided on time relative to now only (not the visit's clock hour), so a reset gives the same counts.
            if (bookedAt + 9 * DAY < end) {
              uniqueSlot(trialBuild.id, site.id, visitAt);
              const bookingId = dice.uuid();
              bookVisit(bookingId, bookedAt, visitAt, 'no_show');
              visitOutcome('visit_no_show', bookingId, visitAt, 'No-show at the screening visit');
            }
          }
          break;
        }
        case 'visit_scheduled': {
          const bookedAt = Math.max(at, resultAt + 3 * HOUR);
          const enrolledStep = steps.find((item) => item.status === 'enrolled');
          // The visit: past and attended for the enrolled, ahead for those still scheduled.
          const visitAt = enrolledStep
            ? uniqueSlot(trialBuild.id, site.id, visitTime(site, enrolledStep.at - DAY))
            : uniqueSlot(trialBuild.id, site.id, visitTime(site, end + dice.int(1, 14) * DAY));
          const bookingId = dice.uuid();
          const attended = Boolean(enrolledStep) && visitAt < end;
          bookVisit(bookingId, bookedAt, visitAt, attended ? 'completed' : 'scheduled');
          data.contactEvents.push({
            ...base,
            kind: 'booking',
            summary: `Visit booked at ${site.name}`,
            details: { bookingId, siteId: site.id },
            referenceId: bookingId,
            actorLabel: COORDINATOR,
            occurredAt: new Date(bookedAt),
          });
          changeStatus(previous, 'visit_scheduled', bookedAt + 1000, 'manual');
          sendSms(
            bookedAt + 2000,
            language === 'es' ? `Su visita en ${site.name} está confirmada.` : `Your visit at ${site.name} is confirmed.`,
            'booking_confirmation',
            'transactional',
          );
          // How easy booking was: the SMS question after the confirmation, answered by some (decision 067).
          if (dice.chance(0.3)) rate('sms', bookedAt + 3 * HOUR, null, bookingId);
          if (attended) {
            visitOutcome('visit_attended', bookingId, visitAt, 'Visit attended');
          } else if (enrolledStep) {
            status = 'visit_scheduled';
          }
          break;
        }
        case 'enrolled': {
          if (status !== 'enrolled') break;
          changeStatus(previous, 'enrolled', at, 'manual');
          break;
        }
        case 'not_interested': {
          if (contactChannel === 'sms') receiveSms(at, language === 'es' ? 'No, gracias' : 'No thanks, not interested');
          else placeCall(at, 'declined', dice.int(30, 120));
          changeStatus(previous, 'not_interested', at + MINUTE, contactChannel);
          break;
        }
        case 'unreachable': {
          const attempts = dice.int(1, 3);
          for (let attempt = 0; attempt < attempts; attempt++)
            placeCall(at - (attempts - attempt - 1) * DAY, dice.pick(['no_answer', 'voicemail', 'busy']), dice.int(5, 40));
          changeStatus(previous, 'unreachable', at + HOUR, 'call');
          break;
        }
        case 'do_not_contact': {
          receiveSms(at, 'STOP');
          data.contactEvents.push({
            ...base,
            kind: 'consent',
            summary: 'Consent: do not contact on',
            details: { doNotContact: { from: false, to: true }, reason: 'Requested by candidate' },
            actorLabel: COORDINATOR,
            occurredAt: new Date(at + 1000),
          });
          activity({ kind: 'opted_out', source: 'sms', trialId: trialBuild.id, candidateId: id, label: 'all', occurredAt: new Date(at + 1000) });
          changeStatus(previous, 'do_not_contact', at + 2000, 'sms');
          break;
        }
        default:
          break;
      }
      if (step.status === 'enrolled' && status !== 'enrolled') break;
      previous = step.status;
    }
    data.candidates[data.candidates.length - 1].status = status;
  }
  return data;
}

// ---- the database ----

/** Children first: every table with the organization's demo rows (memberships, invitations, audit are kept). */
const DEMO_TABLES = [
  activityEvent,
  // Every rollup of the events, or a reset would count the old events in them again (decision 082).
  activityDaily,
  activityKindDaily,
  activityMonthly,
  activityTotal,
  enrolmentMonthly,
  prescreenResultMonthly,
  timeToResultMonthly,
  timeToResultTotal,
  sequenceStepRun,
  sequenceEnrollment,
  sequenceVersion,
  sequence,
  trialMatch,
  candidateFact,
  candidateNote,
  callEvent,
  callback,
  call,
  chatMessage,
  chatConversation,
  chatAgent,
  smsMessage,
  booking,
  prescreenResult,
  voiceAgent,
  prescreenFormVersion,
  prescreenForm,
  contactEvent,
  candidateTrial,
  processingRunItem,
  processingRun,
  candidate,
  trialCriterion,
  trial,
] as const;

async function insertBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Writes built demo data in the caller's (organization-scoped) transaction. */
export async function insertDemoData(tx: Transaction, data: DemoData): Promise<void> {
  if (data.trials.length) await tx.insert(trial).values(data.trials);
  if (data.criteria.length) await tx.insert(trialCriterion).values(data.criteria);
  if (data.forms.length) await tx.insert(prescreenForm).values(data.forms);
  if (data.formVersions.length) await tx.insert(prescreenFormVersion).values(data.formVersions);
  if (data.voiceAgents.length) await tx.insert(voiceAgent).values(data.voiceAgents);
  if (data.chatAgents.length) await tx.insert(chatAgent).values(data.chatAgents);
  await insertBatches(data.candidates, 500, (batch) => tx.insert(candidate).values(batch));
  await insertBatches(data.links, 2000, (batch) => tx.insert(candidateTrial).values(batch));
  // The notes and the facts the note reader finds in them, as for any note (matching's facts.ts).
  await insertBatches(data.notes, 1000, (batch) => storeClinicalNotes(tx, data.candidates[0].organizationId, batch));
  await insertBatches(data.results, 300, (batch) => tx.insert(prescreenResult).values(batch));
  await insertBatches(data.bookings, 1000, (batch) => tx.insert(booking).values(batch));
  await insertBatches(data.calls, 500, (batch) => tx.insert(call).values(batch));
  await insertBatches(data.sms, 1000, (batch) => tx.insert(smsMessage).values(batch));
  await insertBatches(data.conversations, 1000, (batch) => tx.insert(chatConversation).values(batch));
  await insertBatches(data.chatMessages, 2000, (batch) => tx.insert(chatMessage).values(batch));
  await insertBatches(data.contactEvents, 1500, (batch) => tx.insert(contactEvent).values(batch));
  await insertBatches(data.activity, 2500, (batch) => recordActivity(tx, batch));
}

/** Deletes the organization's demo rows (row security limits every statement to it as well). */
export async function deleteDemoData(tx: Transaction, organizationId: string): Promise<void> {
  for (const table of DEMO_TABLES) await tx.delete(table).where(eq(table.organizationId, organizationId));
}

export async function countDemoRows(tx: Transaction, organizationId: string): Promise<DemoCounts> {
  const countOf = async (table: (typeof DEMO_TABLES)[number]) =>
    Number((await tx.select({ value: count() }).from(table).where(eq(table.organizationId, organizationId)))[0]?.value ?? 0);
  const trials = await tx.select({ sites: trial.sites }).from(trial).where(eq(trial.organizationId, organizationId));
  return {
    trials: trials.length,
    sites: trials.reduce((sum, row) => sum + row.sites.length, 0),
    candidates: await countOf(candidate),
    prescreenForms: await countOf(prescreenForm),
    prescreenResults: await countOf(prescreenResult),
    bookings: await countOf(booking),
    calls: await countOf(call),
    smsMessages: await countOf(smsMessage),
    chatConversations: await countOf(chatConversation),
    voiceAgents: await countOf(voiceAgent),
    chatAgents: await countOf(chatAgent),
    activityEvents: await countOf(activityEvent),
  };
}

/** The demo organization, found by its slug across organizations (the registry has no row security). */
export async function findDemoOrganization(db: Database) {
  return findOrganizationBySlug(systemDb(db), DEMO_ORGANIZATION_SLUG);
}

export interface DemoSeedResult {
  created: boolean;
  organizationId: string;
  counts: DemoCounts | null;
}

/**
 * Creates the demo organization with its data. Idempotent: when it exists with trials, nothing is done; when
 * it exists empty (an interrupted first run), its data is written now.
 */
export async function seedDemoOrganization(db: Database, options: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  const existing = await findDemoOrganization(db);
  if (existing) {
    const trials = await runAsOrganization(
      db,
      existing.id,
      async (tx) => (await tx.select({ value: count() }).from(trial).where(eq(trial.organizationId, existing.id)))[0]?.value ?? 0,
    );
    if (Number(trials) > 0) return { created: false, organizationId: existing.id, counts: null };
  }
  const organization = existing ?? (await insertOrganization(systemDb(db), { name: DEMO_ORGANIZATION_NAME, slug: DEMO_ORGANIZATION_SLUG }));
  return { created: true, organizationId: organization.id, counts: await writeDemoData(db, organization.id, options, 'demo.seed') };
}

/** Builds the data and writes it in one transaction with its audit record; a reset deletes the old data first. */
async function writeDemoData(db: Database, organizationId: string, options: DemoSeedOptions, action: 'demo.seed' | 'demo.reset') {
  const data = buildDemoData(organizationId, options);
  return runAsOrganization(db, organizationId, async (tx) => {
    if (action === 'demo.reset') await deleteDemoData(tx, organizationId);
    await insertDemoData(tx, data);
    await recordAudit(tx, {
      organizationId,
      actorUserId: options.actorUserId ?? null,
      action,
      entityType: 'organization',
      entityId: organizationId,
      changes: { candidates: data.candidates.length },
    });
    return countDemoRows(tx, organizationId);
  });
}

/**
 * Deletes the demo organization's data and seeds it again under the same organization id (public chat links,
 * memberships and the audit trail stay), in one transaction: a failure leaves the old data. Creates the
 * organization when it does not exist.
 */
export async function resetDemoOrganization(db: Database, options: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  const existing = await findDemoOrganization(db);
  if (!existing) return seedDemoOrganization(db, options);
  return { created: false, organizationId: existing.id, counts: await writeDemoData(db, existing.id, options, 'demo.reset') };
}

/** Candidates of the demo organization at each site id (customFields.siteId), for checks and the status tile. */
export async function candidatesBySite(tx: Transaction, organizationId: string, trialIds: string[]): Promise<Map<string, number>> {
  if (!trialIds.length) return new Map();
  const rows = await tx
    .select({ customFields: candidate.customFields })
    .from(candidate)
    .innerJoin(candidateTrial, and(eq(candidateTrial.candidateId, candidate.id), inArray(candidateTrial.trialId, trialIds)))
    .where(eq(candidate.organizationId, organizationId));
  const bySite = new Map<string, number>();
  for (const row of rows) {
    const siteId = typeof row.customFields.siteId === 'string' ? row.customFields.siteId : '';
    bySite.set(siteId, (bySite.get(siteId) ?? 0) + 1);
  }
  return bySite;
}
