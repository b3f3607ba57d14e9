/**
 * The demo's people step: each synthetic person at a site of a trial, with the status they head for, the steps on
 * the way that happened before now, who they are (by the city's mix of ethnicity, race and language), their
 * consents, the referral note that came with them, and the "added" events.
 */
import { CANDIDATE_STATUSES, type CandidateStatus } from '../../../contract/candidates';
import { candidateActivitySource } from '../../activity';
import { referralNote } from './referral-notes';
import { addActivity, COORDINATOR, DAY, type DemoPerson, type DemoSite, type DemoTrialBuild, HOUR, MINUTE, type SeedContext } from './seed-context';
import {
  AREA_CODES,
  DEMO_CITIES,
  DEMO_ETHNICITIES,
  DEMO_RACES,
  DEMO_TRIALS,
  FIRST_NAMES,
  FIRST_NAMES_HISPANIC,
  LAST_NAMES,
  LAST_NAMES_HISPANIC,
  PRESCREEN_NOTES,
  SOURCES,
} from './seed-data';

/** People whose referral came with a note. */
const REFERRAL_NOTE_SHARE = 0.9;

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
/** Rough funnel shape of the statuses people head for (recent ones stop earlier: there was no time yet). */
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
const TARGETS = CANDIDATE_STATUSES.flatMap((status) => Array.from({ length: WEIGHTS[status] }, () => status));
const TRIAL_SHARES = [0.33, 0.27, 0.22, 0.18];

/** The i-th person, written with their candidate row, trial link, referral note and "added" events. */
export function buildPerson(ctx: SeedContext, trials: DemoTrialBuild[], i: number): DemoPerson {
  // Every status once among the first people, early enough to have reached it.
  const showcase = i < CANDIDATE_STATUSES.length;
  const trial = showcase
    ? trials[0]
    : ctx.dice.weighted(
        trials,
        trials.map((item) => TRIAL_SHARES[item.index] ?? 0.1),
      );
  const started = trial.sites.filter((site) => site.started);
  const site = ctx.dice.weighted(
    started,
    started.map((item) => item.weight),
  );
  const earliest = Math.max(site.startsAt, ctx.start);
  const latest = trial.recruitingUntil - HOUR;
  // Busier towards today: the density of sqrt(u) grows linearly.
  const createdMs = Math.floor(earliest + (latest - earliest) * (showcase ? 0.3 * ctx.dice.next() : Math.sqrt(ctx.dice.next())));
  const target: CandidateStatus = showcase ? CANDIDATE_STATUSES[i] : ctx.dice.pick(TARGETS);
  const steps = funnelSteps(ctx, target, createdMs, showcase);
  const status: CandidateStatus = steps.length ? steps[steps.length - 1].status : 'new';
  const facts = drawFacts(ctx, trial, site, i, steps, status);
  const person: DemoPerson = {
    id: facts.id,
    trial,
    site,
    target,
    steps,
    status,
    firstName: facts.firstName,
    phone: facts.phone,
    language: facts.language,
    contactChannel: facts.contactChannel,
    prescreenChannel: facts.prescreenChannel,
    createdMs,
    previous: 'new',
    resultId: null,
    resultAt: 0,
  };
  writeCandidate(ctx, person, facts, i);
  return person;
}

/** Step times; a step that would land after now has not happened yet: the person stops before it. */
function funnelSteps(ctx: SeedContext, target: CandidateStatus, createdMs: number, showcase: boolean) {
  const steps: Array<{ status: CandidateStatus; at: number }> = [];
  let cursor = createdMs;
  for (const status of PATHS[target]) {
    const [min, max] = STEP_DAYS[status];
    const at = Math.floor(cursor + ctx.dice.between(min, max) * DAY);
    if (at >= ctx.end - 10 * MINUTE && !showcase) break;
    steps.push({ status, at: Math.min(at, ctx.end - 10 * MINUTE) });
    cursor = at;
  }
  return steps;
}

type PersonFacts = ReturnType<typeof drawFacts>;

/** Who the person is: by their city's mix, the trial's age and sex, and how they were reached. */
function drawFacts(ctx: SeedContext, trial: DemoTrialBuild, site: DemoSite, i: number, steps: DemoPerson['steps'], status: CandidateStatus) {
  const { dice } = ctx;
  const city = DEMO_CITIES[site.key];
  const hispanic = dice.chance(city.hispanicShare);
  const race = dice.weighted(DEMO_RACES, city.raceWeights);
  const spanish = hispanic ? dice.chance(0.45) : dice.chance(0.01);
  const language: 'en' | 'es' = spanish ? 'es' : 'en';
  const firstName = hispanic && dice.chance(0.8) ? dice.pick(FIRST_NAMES_HISPANIC) : dice.pick(FIRST_NAMES);
  const lastName = hispanic && dice.chance(0.8) ? dice.pick(LAST_NAMES_HISPANIC) : dice.pick(LAST_NAMES);
  const definition = DEMO_TRIALS[trial.index];
  const female = definition.sex === 'female' ? dice.chance(0.95) : dice.chance(0.53);
  const minAge = definition.minimumAgeYears ?? 18;
  const maxAge = definition.maximumAgeYears ?? 85;
  const age = dice.chance(0.85) ? dice.int(minAge, maxAge) : dice.int(18, 85);
  const phone = i < AREA_CODES.length * 100 ? `+1${AREA_CODES[Math.floor(i / 100) % AREA_CODES.length]}5550${String(100 + (i % 100)).slice(-3)}` : null;
  const source = dice.pick(SOURCES);
  const dnc = status === 'do_not_contact';
  const consentSms = !dnc && dice.chance(0.8);
  const consentCalls = !dnc && dice.chance(0.85);
  const id = dice.uuid();
  const contactChannel: 'sms' | 'call' = consentSms && dice.chance(0.7) ? 'sms' : 'call';
  const prescreenChannel: 'call' | 'chat' = dice.chance(0.6) ? 'call' : 'chat';
  const notes =
    steps.some((step) => step.status === 'prescreening') && dice.chance(0.5)
      ? [{ text: dice.pick(PRESCREEN_NOTES), authorUserId: null, authorName: COORDINATOR, createdAt: new Date(steps[1].at + HOUR).toISOString() }]
      : [];
  return {
    id,
    city,
    hispanic,
    race,
    language,
    firstName,
    lastName,
    female,
    age,
    phone,
    source,
    dnc,
    consentSms,
    consentCalls,
    contactChannel,
    prescreenChannel,
    notes,
  };
}

/** The candidate row, the trial link, the referral note and the "added" (and note) events. */
function writeCandidate(ctx: SeedContext, person: DemoPerson, facts: PersonFacts, i: number) {
  const { dice } = ctx;
  const { city, firstName, lastName, dnc, consentSms, consentCalls, notes } = facts;
  const createdAt = new Date(person.createdMs);
  const lastAt = new Date(person.steps.length ? person.steps[person.steps.length - 1].at : person.createdMs);
  const birthYear = new Date(ctx.end).getUTCFullYear() - facts.age - 1;
  ctx.data.candidates.push({
    id: person.id,
    organizationId: ctx.org,
    firstName,
    lastName,
    phone: facts.phone,
    email: i % 5 === 4 ? null : `${firstName}.${lastName}.${i}@demo.example`.toLowerCase(),
    dateOfBirth: `${birthYear}-${String(dice.int(1, 12)).padStart(2, '0')}-${String(dice.int(1, 28)).padStart(2, '0')}`,
    sex: facts.female ? 'female' : 'male',
    addressLine: `${dice.int(10, 9899)} ${dice.pick(['Oak', 'Maple', 'Cedar', 'Elm', 'Park', 'Lake', 'Hill', 'Washington', 'Lincoln'])} ${dice.pick(['Street', 'Avenue', 'Drive', 'Road'])}`,
    city: city.city,
    region: city.region,
    postalCode: `${city.zipPrefix}${String(dice.int(1, 59)).padStart(2, '0')}`,
    country: 'US',
    timeZone: city.timeZone,
    preferredLanguage: facts.language,
    source: facts.source,
    customFields: { ethnicity: facts.hispanic ? DEMO_ETHNICITIES[0] : DEMO_ETHNICITIES[1], race: facts.race, siteId: person.site.id },
    consentSms,
    consentSmsSource: consentSms ? 'Paper consent form at the clinic' : null,
    consentSmsAt: consentSms ? createdAt : null,
    consentCalls,
    consentCallsSource: consentCalls ? 'Paper consent form at the clinic' : null,
    consentCallsAt: consentCalls ? createdAt : null,
    doNotContact: dnc,
    doNotContactAt: dnc ? lastAt : null,
    doNotContactReason: dnc ? 'Requested by candidate' : null,
    status: person.status,
    prescreenNotes: notes,
    createdAt,
    updatedAt: lastAt,
  });
  ctx.data.links.push({ candidateId: person.id, trialId: person.trial.id, organizationId: ctx.org, linkedAt: createdAt });
  // Most referrals come with a letter; the note reader reads it when the demo is written.
  if (ctx.noteDice.chance(REFERRAL_NOTE_SHARE))
    ctx.data.notes.push({
      id: ctx.noteDice.uuid(),
      candidateId: person.id,
      body: referralNote(ctx.noteDice.next, { trialIndex: person.trial.index, age: facts.age, female: facts.female }),
      createdAt,
    });
  const base = { organizationId: ctx.org, candidateId: person.id };
  ctx.data.contactEvents.push({
    ...base,
    kind: 'created',
    summary: 'Added (demo data)',
    details: { source: 'seed' },
    actorLabel: 'System',
    occurredAt: createdAt,
  });
  addActivity(ctx, {
    kind: 'candidate_created',
    source: candidateActivitySource(facts.source),
    trialId: person.trial.id,
    candidateId: person.id,
    occurredAt: createdAt,
  });
  if (notes.length)
    ctx.data.contactEvents.push({
      ...base,
      kind: 'note',
      summary: 'Prescreen note added',
      details: { noteIndex: 0 },
      actorLabel: COORDINATOR,
      occurredAt: new Date(notes[0].createdAt),
    });
}
