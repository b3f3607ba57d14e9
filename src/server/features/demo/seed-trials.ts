/**
 * The demo's trials step: each trial of seed-data.ts with its sites, criteria, published prescreen form, voice and
 * chat agents, and a bank of prescreen answers by recommendation (what the people's results are drawn from).
 */
import type { StudyBlock } from '../../../contract/prescreen-forms';
import type { TrialStatusChange } from '../../../contract/trials';
import type { CriterionRule } from '../../../contract/trials';
import { generateStudyBlocks } from '../prescreen-forms/generator';
import { conceptRef, meshIdByName, vocabulary } from '../trials/vocabulary';
import { evaluatePrescreen, type RawAnswer, type Recommendation } from '../prescreen/engine';
import { type AnswerSample, addActivity, DAY, DEMO_ORGANIZATION_NAME, type DemoSite, type DemoTrialBuild, type Dice, type SeedContext } from './seed-context';
import { DEMO_CITIES, type DEMO_TRIALS, PARTNER_SITE_NAMES } from './seed-data';

type TrialDefinition = (typeof DEMO_TRIALS)[number];
type CriterionRow = { id: string; kind: 'inclusion' | 'exclusion'; text: string };

/** One trial with everything it needs before people are referred to it. */
export function buildTrial(ctx: SeedContext, definition: TrialDefinition, index: number): DemoTrialBuild {
  const { criteria, siteCities, spanishTitle, ...fields } = definition;
  const id = ctx.dice.uuid();
  const createdAt = ctx.start - (20 - index * 4) * DAY;
  const recruitingFrom = createdAt + 2 * DAY;
  const pausedAt = ctx.end - 50 * DAY;
  const recruitingUntil = fields.status === 'paused' ? pausedAt : ctx.end;
  const sites = buildSites(ctx, siteCities, recruitingFrom);
  const history: TrialStatusChange[] = [
    { from: null, to: 'draft', at: new Date(createdAt).toISOString(), byUserId: null },
    { from: 'draft', to: 'recruiting', at: new Date(recruitingFrom).toISOString(), byUserId: null },
    ...(fields.status === 'paused' ? [{ from: 'recruiting' as const, to: 'paused' as const, at: new Date(pausedAt).toISOString(), byUserId: null }] : []),
  ];
  ctx.data.trials.push({
    ...fields,
    id,
    organizationId: ctx.org,
    sites: sites.map(({ key: _key, startsAt: _startsAt, started: _started, weight: _weight, ...site }) => site),
    statusHistory: history,
    createdAt: new Date(createdAt),
    updatedAt: new Date(fields.status === 'paused' ? pausedAt : recruitingFrom),
  });
  for (const change of history.slice(1))
    addActivity(ctx, { kind: 'trial_status_changed', source: 'manual', trialId: id, label: change.to, occurredAt: new Date(change.at) });

  const criterionRows = buildCriteria(ctx, id, criteria, createdAt);
  const form = buildForm(ctx, id, fields.publicTitle, criterionRows, sites[0].name, createdAt);
  const agents = buildAgents(
    ctx,
    { trialId: id, index, formId: form.formId, title: fields.publicTitle, spanishTitle, recruiting: fields.status === 'recruiting' },
    form.publishedAt,
  );
  const answers = answerBank(
    ctx.dice,
    form.blocks,
    criterionRows.map((row) => ({ id: row.id, kind: row.kind, text: row.text })),
    ctx.today,
  );
  const { formId, formVersionId, blocks } = form;
  return { id, index, status: fields.status, recruitingFrom, recruitingUntil, sites, formId, formVersionId, blocks, ...agents, answers };
}

/** The trial's sites in US cities: they open one after another, and the last has not started (no people yet). */
function buildSites(ctx: SeedContext, siteCities: TrialDefinition['siteCities'], recruitingFrom: number): DemoSite[] {
  return siteCities.map((key, position) => {
    const city = DEMO_CITIES[key];
    const last = position === siteCities.length - 1;
    return {
      id: ctx.dice.uuid(),
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
      startsAt: recruitingFrom + position * 28 * DAY,
      started: !last,
      weight: position === 0 ? 3 : 2.4 - position * 0.3,
    };
  });
}

function buildCriteria(ctx: SeedContext, trialId: string, criteria: TrialDefinition['criteria'], createdAt: number) {
  const rows = criteria.map((criterion, position) => ({
    id: ctx.dice.uuid(),
    organizationId: ctx.org,
    trialId,
    position,
    kind: criterion.kind,
    text: criterion.text,
    rule: withConcept(criterion.rule, criterion.concept),
    ruleSource: criterion.rule ? ('structured' as const) : null,
    needsReview: !criterion.rule,
    createdAt: new Date(createdAt),
    updatedAt: new Date(createdAt),
  }));
  ctx.data.criteria.push(...rows);
  return rows;
}

/** A condition or medication rule with its vocabulary concept (by MeSH heading); other rules as they are. */
function withConcept(rule: CriterionRule | undefined, heading: string | undefined): CriterionRule | null {
  if (!rule) return null;
  if (!heading || (rule.type !== 'condition' && rule.type !== 'medication')) return rule;
  const id = meshIdByName(heading);
  const concept = id ? vocabulary().concept(id) : undefined;
  return concept ? { ...rule, concepts: [conceptRef(concept)] } : rule;
}

/** The prescreen form generated from the criteria, published a day after the trial was created. */
function buildForm(ctx: SeedContext, trialId: string, title: string, criterionRows: ReturnType<typeof buildCriteria>, siteName: string, createdAt: number) {
  const blocks = generateStudyBlocks({ criteria: criterionRows.map((row) => ({ ...row, population: null })), siteName }).blocks;
  const formId = ctx.dice.uuid();
  const formVersionId = ctx.dice.uuid();
  const publishedAt = new Date(createdAt + DAY);
  ctx.data.forms.push({
    id: formId,
    organizationId: ctx.org,
    trialId,
    name: `${title} prescreen`,
    status: 'published',
    currentVersion: 1,
    publishedAt,
    createdAt: publishedAt,
    updatedAt: publishedAt,
  });
  ctx.data.formVersions.push({ id: formVersionId, organizationId: ctx.org, formId, version: 1, blocks, createdAt: publishedAt });
  return { formId, formVersionId, blocks, publishedAt };
}

interface AgentTrial {
  trialId: string;
  index: number;
  formId: string;
  title: string;
  spanishTitle: string;
  recruiting: boolean;
}

/** A prescreen voice agent and chat agent per trial, in English and Spanish. */
function buildAgents(ctx: SeedContext, trial: AgentTrial, publishedAt: Date) {
  const voiceAgentId = ctx.dice.uuid();
  ctx.data.voiceAgents.push({
    id: voiceAgentId,
    organizationId: ctx.org,
    name: `${trial.title} - prescreen calls`,
    type: 'PRESCREEN',
    trialId: trial.trialId,
    prescreenFormId: trial.formId,
    languages: ['en', 'es'],
    firstMessage: {
      en: `Hi, this is Ava calling from ${DEMO_ORGANIZATION_NAME} about the ${trial.title.toLowerCase()} study you asked about. Do you have a few minutes?`,
      es: `Hola, le llama Ava de ${DEMO_ORGANIZATION_NAME} sobre el estudio de ${trial.spanishTitle} por el que preguntó. ¿Tiene unos minutos?`,
    },
    voicemailMessage: {
      en: `Hi, this is Ava from ${DEMO_ORGANIZATION_NAME}. Please call us back about the study when you can.`,
      es: `Hola, soy Ava de ${DEMO_ORGANIZATION_NAME}. Por favor, devuélvanos la llamada sobre el estudio.`,
    },
    // A call uses the active agent of the person's trial (decision 174): every recruiting trial has its own.
    active: trial.recruiting,
    createdAt: publishedAt,
    updatedAt: publishedAt,
  });
  const chatAgentId = ctx.dice.uuid();
  ctx.data.chatAgents.push({
    id: chatAgentId,
    organizationId: ctx.org,
    name: `${trial.title} - chat`,
    type: 'PRESCREEN',
    trialId: trial.trialId,
    prescreenFormId: trial.formId,
    greeting: {
      en: `Hello! I can tell you about the ${trial.title.toLowerCase()} study and check whether it may suit you. It takes about 5 minutes.`,
      es: `Hola. Puedo contarle sobre el estudio de ${trial.spanishTitle} y ver si podría ser adecuado para usted. Toma unos 5 minutos.`,
    },
    closingMessage: {
      en: 'Thank you! A coordinator will review your answers and contact you.',
      es: 'Gracias. Un coordinador revisará sus respuestas y se pondrá en contacto con usted.',
    },
    languages: ['en', 'es'],
    requirePhoneVerification: false,
    nextStep: 'callback',
    active: trial.recruiting,
    createdAt: publishedAt,
    updatedAt: publishedAt,
  });
  return { voiceAgentId, chatAgentId };
}

/** Random answers to a form's patient questions, run through the engine, kept by recommendation (12 of each at most). */
function answerBank(dice: Dice, blocks: StudyBlock[], criteria: CriterionRow[], today: string) {
  const bank = new Map<Recommendation, AnswerSample[]>();
  // Patient questions, and the site items staff record on the result.
  const questions = blocks.flatMap((block) => block.questions);
  const kinds = new Map(criteria.map((criterion) => [criterion.id, criterion.kind]));
  for (let attempt = 0; attempt < 240; attempt++) {
    const answers: RawAnswer[] = [];
    for (const question of questions) {
      if (question.required === false && dice.chance(0.4)) continue;
      answers.push({ questionId: question.id, value: randomAnswer(dice, question, kinds, today) });
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

type Question = StudyBlock['questions'][number];

/** One plausible answer to a question, by its type and the thresholds its criterion links test. */
function randomAnswer(dice: Dice, question: Question, kinds: Map<string, 'inclusion' | 'exclusion'>, today: string): unknown {
  const predicates = question.criterionLinks.map((link) => link.when);
  switch (question.type) {
    case 'yes_no': {
      // Mostly the answer an eligible person gives, so every recommendation turns up.
      const link = question.criterionLinks.find((item) => item.when.op === 'is_yes' || item.when.op === 'is_no');
      const yesSays = link ? (link.when.op === 'is_yes' ? link.then : link.otherwise) : undefined;
      const kind = link ? kinds.get(link.criterionId) : undefined;
      const eligibleIfYes = yesSays === 'review' || yesSays === undefined ? dice.chance(0.5) : kind === 'exclusion' ? yesSays === 'not_met' : yesSays === 'met';
      return dice.chance(0.8) ? eligibleIfYes : !eligibleIfYes;
    }
    case 'number': {
      const thresholds = predicates.flatMap((p) =>
        'value' in p && typeof p.value === 'number' ? [p.value, ...('upper' in p && typeof p.upper === 'number' ? [p.upper] : [])] : [],
      );
      const base = thresholds.length ? dice.pick(thresholds) : 10;
      return Math.round(base * dice.between(0.75, 1.25) * 10) / 10;
    }
    case 'date':
      return `${Number(today.slice(0, 4)) - dice.int(16, 80)}-${String(dice.int(1, 12)).padStart(2, '0')}-${String(dice.int(1, 28)).padStart(2, '0')}`;
    case 'single_choice':
      return dice.pick((question.options ?? []).map((option) => option.value).concat(question.options?.length ? [] : ['yes']));
    case 'multiple_choice':
      return [dice.pick((question.options ?? []).map((option) => option.value).concat(question.options?.length ? [] : ['yes']))];
    default:
      return dice.pick(['Evenings after 5pm', 'Mornings', 'Any time on weekdays']);
  }
}
