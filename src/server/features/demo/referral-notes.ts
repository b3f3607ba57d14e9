/**
 * The demo's referral notes (decision 132): a short letter per seeded person, written from what the seed knows of
 * them (the trial they came for, their age and sex) and a profile drawn from its own seeded generator, so the rest
 * of the demo's rows do not change. Varied openings, orders and wordings, in the shorthand referral letters use;
 * most people referred for a trial have its condition, some do not, some have what excludes them, and some notes
 * say nothing about a criterion. The note reader reads them like any note: nothing here writes a fact.
 */

type Pick = <T>(items: readonly T[]) => T;

export interface ReferralPerson {
  /** The index of the demo trial they were referred for (DEMO_TRIALS). */
  trialIndex: number;
  age: number;
  female: boolean;
}

const REFERRERS = ['Dr. Patel', 'Dr. Nguyen', 'Dr. Okafor', 'Dr. Alvarez', 'Dr. Chen', 'Dr. Rossi', 'Dr. Haddad', 'Dr. Kim'];
const CLINICS = ['Riverside Family Medicine', 'Lakeside Internal Medicine', 'the Northgate clinic', 'Eastside Community Health', 'the university practice'];

/** Who the person is ("58-year-old woman") and who sent them. */
function opening(pick: Pick, person: ReferralPerson): { who: string; source: string } {
  const woman = person.female ? pick(['woman', 'female']) : pick(['man', 'male']);
  const who = pick([
    `${person.age}-year-old ${woman}`,
    `${person.age} yo ${woman}`,
    `${person.age} year old ${woman}`,
    `Patient is a ${person.age}-year-old ${woman}`,
  ]);
  const source = pick([
    `Referred by ${pick(REFERRERS)} at ${pick(CLINICS)}.`,
    `Referral from ${pick(CLINICS)}.`,
    'Self-referred through the study website.',
    `Seen by ${pick(REFERRERS)} last month; referred for research.`,
  ]);
  return { who: `${who[0].toUpperCase()}${who.slice(1)}`, source };
}

/** Other things referral letters mention: nothing the demo's criteria ask about. */
function background(pick: Pick, chance: (p: number) => boolean): string[] {
  const lines: string[] = [];
  if (chance(0.3)) lines.push(pick(['Hypertension, on lisinopril.', 'High blood pressure, well controlled on amlodipine.', 'Hypertension for 6 years.']));
  if (chance(0.2)) lines.push(pick(['Hyperlipidemia on atorvastatin.', 'High cholesterol, takes simvastatin.']));
  if (chance(0.12)) lines.push(pick(['Hypothyroidism on levothyroxine.', 'GERD, takes omeprazole as needed.', 'Seasonal allergies.']));
  return lines;
}

function asthmaNote(pick: Pick, chance: (p: number) => boolean, person: ReferralPerson): string[] {
  const lines: string[] = [];
  const has = chance(0.78);
  if (has)
    lines.push(
      pick([
        'with asthma since childhood, on fluticasone/salmeterol.',
        'with moderate persistent asthma, uses an albuterol inhaler several times a week.',
        'with asthma diagnosed 8 years ago, on budesonide/formoterol.',
        'with poorly controlled asthma despite inhaled steroids.',
      ]),
    );
  else if (chance(0.5))
    lines.push(pick(['with chronic cough; spirometry normal, asthma ruled out.', 'referred for shortness of breath. No asthma on testing.']));
  else lines.push(pick(['with recurrent bronchitis.', 'with seasonal wheeze, not yet evaluated.']));
  // Most people referred to an asthma trial have had steroid courses for attacks (what the trial asks for); some only an ER visit.
  if (has && chance(0.75))
    lines.push(
      pick([
        'Two courses of prednisone for exacerbations last year.',
        'Needed oral steroids twice in the past year for flare-ups.',
        'One ER visit for an asthma attack in the spring, sent home on a prednisone burst.',
        'One ER visit for an asthma attack in the spring.',
      ]),
    );
  lines.push(pick(['Never smoked.', 'Non-smoker.', 'Former smoker, quit 12 years ago.', 'Current smoker, about half a pack a day.', '']));
  if (person.female && person.age < 50) lines.push(pick(['Not pregnant.', 'Not pregnant, not breastfeeding.', '', '', 'Currently pregnant, 20 weeks.']));
  return lines;
}

function diabetesNote(pick: Pick, chance: (p: number) => boolean, random: () => number): string[] {
  const lines: string[] = [];
  const has = chance(0.85);
  lines.push(
    has
      ? pick(['with type 2 diabetes for 5 years.', 'with T2DM diagnosed in 2019.', 'with type 2 diabetes mellitus, poorly controlled.'])
      : pick(['with prediabetes, no diabetes diagnosis.', 'referred for weight management. Denies diabetes.']),
  );
  if (has) {
    const metformin = random();
    if (metformin < 0.8) lines.push(pick(['On metformin 1000 mg twice daily.', 'Takes metformin 500 mg BID.', 'Metformin 850 mg daily for 3 years.']));
    else if (metformin < 0.87) lines.push('Metformin stopped because of GI upset.');
    const a1c = Math.round((6.4 + random() * 5) * 10) / 10;
    if (chance(0.85)) lines.push(pick([`HbA1c ${a1c}% last month.`, `Last A1c ${a1c}%.`, `Hemoglobin A1c ${a1c}% in clinic.`]));
    if (chance(0.12)) lines.push(pick(['Started insulin glargine last year.', 'On insulin at bedtime.']));
    else if (chance(0.5)) lines.push(pick(['Not on insulin.', 'No insulin.']));
  }
  const bmi = Math.round((22 + random() * 18) * 10) / 10;
  if (chance(0.8)) lines.push(pick([`BMI ${bmi}.`, `BMI ${bmi} kg/m2.`]));
  if (chance(0.06)) lines.push(pick(['History of pancreatitis in 2018.', 'Admitted with acute pancreatitis two years ago.']));
  else if (chance(0.4)) lines.push(pick(['No history of pancreatitis.', 'Denies pancreatitis.']));
  return lines;
}

function migraineNote(pick: Pick, chance: (p: number) => boolean, person: ReferralPerson): string[] {
  const lines: string[] = [];
  if (chance(0.82))
    lines.push(
      pick([
        'with episodic migraine, about 8 headache days a month.',
        'with migraine without aura since her twenties.',
        'with migraine with aura, 6 to 10 attacks a month.',
        'with frequent migraines, tried topiramate without benefit.',
      ]),
    );
  else lines.push(pick(['with tension-type headaches; migraine was ruled out.', 'with daily headaches, cause unclear.']));
  if (chance(0.4)) lines.push(pick(['No pacemaker or other implanted device.', 'No implanted devices.']));
  if (person.female && person.age < 50) lines.push(pick(['Not pregnant.', 'Not pregnant, uses contraception.', '', 'Pregnant, 12 weeks.']));
  return lines;
}

function fluNote(pick: Pick, chance: (p: number) => boolean): string[] {
  const lines = [
    pick(['who is healthy, with no chronic medical conditions.', 'in good health, no regular medications.', 'who is a generally healthy volunteer.']),
  ];
  if (chance(0.3)) lines.push(pick(['Had a flu shot in October.', 'No flu vaccine this season.']));
  if (chance(0.1)) lines.push('Allergic to eggs.');
  return lines;
}

/** One person's referral note: deterministic for the same draws. */
export function referralNote(random: () => number, person: ReferralPerson): string {
  const pick: Pick = (items) => items[Math.floor(random() * items.length)];
  const chance = (p: number) => random() < p;
  const [first, ...rest] =
    person.trialIndex === 0
      ? asthmaNote(pick, chance, person)
      : person.trialIndex === 1
        ? diabetesNote(pick, chance, random)
        : person.trialIndex === 2
          ? migraineNote(pick, chance, person)
          : fluNote(pick, chance);
  const extra = person.trialIndex === 3 ? [] : background(pick, chance);
  const middle = [...rest.filter(Boolean), ...extra];
  // Background lines come before or after the trial's own details; who sent them, first or last.
  if (chance(0.5)) middle.reverse();
  const { who, source } = opening(pick, person);
  const lines = [`${who} ${first}`, ...middle];
  return (chance(0.5) ? [source, ...lines] : [...lines, source]).join(' ');
}
