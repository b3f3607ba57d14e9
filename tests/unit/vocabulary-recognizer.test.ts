import { describe, expect, it } from 'vitest';
import { conceptOfCode } from '../../src/server/features/candidates/import-facts';
import { ancestorsOf, drugClassesOf, inClass, isA, meshIdByName, vocabulary } from '../../src/server/features/trials/vocabulary';
import { lexicon } from '../../src/server/features/trials/vocabulary/lexicon';
import { phraseKey, wordOrders } from '../../src/server/features/trials/vocabulary/normalize';
import { recognize } from '../../src/server/features/trials/vocabulary/recognizer';

/** The one concept recognizer on the MeSH 2024 + ICD-10-CM lexicon (issue 30, decisions 126 and 127). */

const id = (name: string) => {
  const found = meshIdByName(name);
  if (!found) throw new Error(`no heading ${name}`);
  return found;
};
/** "words=concept id" for each mention, in order. */
const read = (text: string, context: string[] = []) => recognize(text, { context }).map((found) => `${text.slice(found.start, found.end)}=${found.conceptId}`);
const conceptOf = (text: string) => {
  const [found] = recognize(text);
  return found?.start === 0 && found.end === text.length ? found.conceptId : undefined;
};

describe('normalized words', () => {
  it('keys a phrase by case, plural, hyphens and British spelling', () => {
    expect(phraseKey('Non-Small-Cell Lung Carcinomas')).toBe(phraseKey('non small cell lung carcinoma'));
    expect(phraseKey('Oesophageal Tumours')).toBe('esophageal tumor');
    expect(phraseKey('anaemia')).toBe('anemia');
    expect(phraseKey('Leukaemias')).toBe('leukemia');
    expect(phraseKey('haemorrhages')).toBe('hemorrhage');
    expect(phraseKey('paediatric allergies')).toBe('pediatric allergy');
    // Words that end in "s" without being plurals stay whole.
    expect(phraseKey('diabetes mellitus')).toBe('diabetes mellitus');
    expect(phraseKey('sepsis, herpes, AIDS, abscesses, stenoses')).toBe('sepsis herpes aids abscess stenosis');
    expect(phraseKey('hours of colour')).toBe('hour of color');
  });

  it("reads MeSH's inverted headings in both word orders", () => {
    expect(wordOrders('Diabetes Mellitus, Type 2')).toEqual(['Diabetes Mellitus, Type 2', 'Type 2 Diabetes Mellitus']);
    expect(wordOrders('Leukemia, Myeloid, Acute')).toContain('Acute Myeloid Leukemia');
    const aml = id('Leukemia, Myeloid, Acute');
    expect(conceptOf('acute myeloid leukaemia')).toBe(aml);
    expect(conceptOf('Leukemia, Myeloid, Acute')).toBe(aml);
    expect(conceptOf('Acute Myeloid Leukemias')).toBe(aml);
  });
});

describe('longest match', () => {
  it('reads the longest phrase a heading names, not the words inside it', () => {
    expect(read('Acute myeloid leukemia in remission')).toEqual([`Acute myeloid leukemia=${id('Leukemia, Myeloid, Acute')}`]);
    expect(read('pulmonary arterial hypertension and hypertension')).toHaveLength(2);
    const [first, second] = recognize('pulmonary arterial hypertension and hypertension');
    expect(first.conceptId).not.toBe(second.conceptId);
  });

  it('keeps each concept with its MeSH heading, certain ICD-10-CM codes and span', () => {
    const [cryptosporidiosis] = recognize('Chronic cryptosporidiosis since May.');
    expect(cryptosporidiosis).toMatchObject({ conceptId: id('Cryptosporidiosis'), kind: 'condition', start: 8, end: 25 });
    expect(cryptosporidiosis.icd10).toEqual(['A07.2']);
  });

  it("reads an inverted heading only where it ends a list item, never into the next item's words (decision 180)", () => {
    // "Kidney Diseases, Diabetic" is MeSH's heading; in a list, the comma separates two conditions.
    expect(read('gout, kidney disease, diabetic retinopathy, asthma').map((found) => found.split('=')[0])).toEqual([
      'gout',
      'kidney disease',
      'diabetic retinopathy',
      'asthma',
    ]);
    expect(conceptOf('Kidney diseases, diabetic')).toBe(id('Diabetic Nephropathies'));
    expect(read('Leukemia, myeloid, acute or chronic').map((found) => found.split('=')[1])).toContain(id('Leukemia, Myeloid, Acute'));
  });

  it('rejects headings and terms too generic or ordinary to name a condition', () => {
    expect(read('Pain, disease and syndrome; lead level and speed; the sex and age of all.')).toEqual([]);
  });
});

describe('how clinicians write what MeSH names (decision 216)', () => {
  /** The MeSH heading a text names as a whole (a hand entry answers with the heading it names). */
  const headingOf = (text: string) => {
    const [found] = recognize(text);
    return found?.start === 0 && found.end === text.length && found.mesh ? `mesh:${lexicon().concepts[lexicon().byId(found.mesh)!].ui}` : undefined;
  };

  it('reads a name with the other word of a pair MeSH itself uses: organ noun or adjective, Roman or Arabic type', () => {
    expect(headingOf('cardiac neoplasms')).toBe(id('Heart Neoplasms'));
    expect(headingOf('hepatic neoplasm')).toBe(id('Liver Neoplasms'));
    expect(headingOf('cerebral tumour')).toBe(id('Brain Neoplasms'));
    expect(headingOf('Type II diabetes mellitus')).toBe(id('Diabetes Mellitus, Type 2'));
    expect(headingOf('stomach fistula')).toBe(id('Gastric Fistula'));
    expect(headingOf('liver infarction')).toBe(id('Hepatic Infarction'));
    expect(headingOf('pulmonary abscess')).toBe(id('Lung Abscess'));
  });

  it('reads an "illness" of an organ or a system as its disease (decision 313)', () => {
    expect(headingOf('pancreatic illness')).toBe(id('Pancreatic Diseases'));
    expect(headingOf('respiratory illnesses')).toBe(id('Respiratory Tract Diseases'));
    expect(headingOf('thyroid illness')).toBeDefined();
    // No heading is derived from a name MeSH leaves out on purpose.
    expect(headingOf('critical illness')).toBeUndefined();
  });

  it('reads "problems" of an organ or a sense as its disease, and a list of them sharing the word', () => {
    expect(headingOf('kidney problems')).toBe(id('Kidney Diseases'));
    expect(headingOf('breast problems')).toBe(id('Breast Diseases'));
    expect(read('hearing or vision problems').map((found) => found.split('=')[0])).toEqual(['hearing', 'vision problems']);
    expect(read('hearing or vision problems')[0]).toBe(`hearing=${id('Hearing Disorders')}`);
  });

  it("never reads a derived name across a comma, where only MeSH's own inverted names are read", () => {
    expect(headingOf('breast problems')).toBe(id('Breast Diseases'));
    expect(read('Breast, problems.')).toEqual([]);
  });

  it('keys an eponym with or without its possessive alike, as MeSH writes it either way', () => {
    expect(phraseKey("Addison's Disease")).toBe(phraseKey('Addison disease'));
    expect(phraseKey("Legionnaires' disease")).toBe('legionnaire disease');
    expect(headingOf("Meniere's disease")).toBe(id('Meniere Disease'));
    expect(headingOf("Barrett's oesophagus")).toBe(id('Barrett Esophagus'));
  });

  it('never reads the word "pseudo-" is joined to as itself: "pseudo-gout" is no gout', () => {
    expect(read('pseudo-gout')).toEqual([]);
    expect(read('gout and pseudo-gout').map((found) => found.split('=')[0])).toEqual(['gout']);
    expect(read('no pseudo-obstruction')).not.toContain(expect.stringMatching(/^obstruction=/));
  });

  it('reads "disease of the liver" as liver disease, and only where the place ends the phrase', () => {
    expect(headingOf('disease of the liver')).toBe(id('Liver Diseases'));
    expect(headingOf('Diseases of the stomach')).toBe(id('Stomach Diseases'));
    // "tumours of the cervical spine" are not tumours of the cervix.
    expect(read('tumours of the cervical spine').join(' ')).not.toContain(id('Uterine Cervical Neoplasms'));
  });
});

describe('abbreviations', () => {
  it('reads a short form as the text defines it, everywhere in the text', () => {
    const hs = conceptOf('hidradenitis suppurativa')!;
    expect(read('Moderate hidradenitis suppurativa (HS). HS lesions in two areas.')).toEqual([`hidradenitis suppurativa=${hs}`, `HS=${hs}`, `HS=${hs}`]);
    // Defined as something else, "HS" is that, never hidradenitis.
    expect(read('Hereditary spherocytosis (HS) in her brother; HS flares.').every((found) => !found.endsWith(hs))).toBe(true);
  });

  it('leaves an ambiguous short form unread without support, and reads it with the context or the text', () => {
    expect(read('MS flare last spring.')).toEqual([]);
    const ms = vocabulary().find('multiple sclerosis', { reach: 'full' })[0].concept.id;
    expect(read('MS flare last spring.', [id('Multiple Sclerosis')])).toEqual([`MS=${ms}`]);
    expect(read('History of PE.')).toEqual([]);
    expect(read('History of PE; a pulmonary embolism on CT in 2019.')[0]).toMatch(/^PE=/);
    // "MI" beside another heart disease of the same branch.
    expect(read('Prior MI and unstable angina.').map((found) => found.split('=')[0])).toEqual(['MI', 'unstable angina']);
    expect(read('ALL in remission.')).toEqual([]);
    // "DDD" is degenerative disc disease in a spine note and a pesticide in MeSH: unread unless defined or supported.
    expect(read('Patients with DDD at two levels.')).toEqual([]);
    expect(read('Degenerative disc disease (DDD) at L4-L5.').map((found) => found.split('=')[0])).toEqual(['Degenerative disc disease', 'DDD']);
  });
});

describe('brands, classes and the hierarchy', () => {
  it('reads a brand as its ingredient', () => {
    expect(conceptOf('Lipitor')).toBe(conceptOf('atorvastatin'));
    expect(conceptOf('Keytruda')).toBeUndefined(); // pembrolizumab is a supplementary record MeSH 2024's files lack
    expect(conceptOf('Zyprexa')).toBe(id('Olanzapine'));
  });

  it('puts a medicine in a class by its pharmacological actions', () => {
    expect(inClass(id('Atorvastatin'), id('Hydroxymethylglutaryl-CoA Reductase Inhibitors'))).toBe(true);
    expect(inClass(id('Warfarin'), id('Anticoagulants'))).toBe(true);
    expect(inClass(id('Tacrolimus'), id('Immunosuppressive Agents'))).toBe(true);
    expect(inClass(id('Clarithromycin'), id('Cytochrome P-450 CYP3A Inhibitors'))).toBe(true);
    expect(inClass(id('Metformin'), id('Hydroxymethylglutaryl-CoA Reductase Inhibitors'))).toBe(false);
    expect(drugClassesOf(id('Atorvastatin'))).toContain(id('Hydroxymethylglutaryl-CoA Reductase Inhibitors'));
    // A hand entry that names the class answers through the heading it names.
    expect(inClass(id('Atorvastatin'), 'cohortly:statins')).toBe(true);
    // "A biologic" is the monoclonal antibodies' heading: a person on adalimumab or infliximab has had a biologic; a small
    // molecule has not.
    expect(inClass(id('Adalimumab'), 'cohortly:biologics')).toBe(true);
    expect(inClass(id('Infliximab'), 'cohortly:biologics')).toBe(true);
    expect(inClass(id('Methotrexate'), 'cohortly:biologics')).toBe(false);
  });

  it('places a condition under its ancestors in the tree', () => {
    expect(isA(id('Carcinoma, Non-Small-Cell Lung'), id('Neoplasms'))).toBe(true);
    expect(isA(id('Carcinoma, Non-Small-Cell Lung'), id('Lung Neoplasms'))).toBe(true);
    expect(isA(id('Non-ST Elevated Myocardial Infarction'), id('Myocardial Infarction'))).toBe(true);
    expect(isA(id('Myocardial Infarction'), id('Cardiovascular Diseases'))).toBe(true);
    expect(isA(id('Asthma'), id('Neoplasms'))).toBe(false);
    // A link clinicians draw that the tree lacks: sciatica is a radiculopathy, not the other way round.
    expect(isA(id('Sciatica'), id('Radiculopathy'))).toBe(true);
    expect(isA(id('Radiculopathy'), id('Sciatica'))).toBe(false);
    // A microdiscectomy is a diskectomy and a spine operation; an operation on the neck is not (thyroid, carotid).
    const named = (text: string) => vocabulary().find(text, { reach: 'full' })[0]?.concept.id ?? '';
    expect(isA(named('a micro-discectomy'), id('Diskectomy'))).toBe(true);
    expect(isA(named('microdiscectomy'), named('spine surgery'))).toBe(true);
    expect(isA(named('prior neck surgery'), named('spine surgery'))).toBe(false);
    expect(isA(id('Neoplasms'), id('Carcinoma, Non-Small-Cell Lung'))).toBe(false);
    expect(ancestorsOf(id('Carcinoma, Non-Small-Cell Lung'))).toContain(id('Neoplasms'));
    // A hand concept: "NSCLC" is the reviewed entry, placed by the heading it names.
    const nsclc = vocabulary().find('NSCLC')[0].concept.id;
    expect(isA(nsclc, id('Neoplasms'))).toBe(true);
  });

  it('maps an ICD-10-CM code to a concept only where the mapping is certain, a child code by its parent', () => {
    expect(conceptOfCode('L73.2')?.id).toBe(conceptOf('hidradenitis suppurativa'));
    expect(conceptOfCode('A07.2')?.id).toBe(id('Cryptosporidiosis'));
    // An inclusion term names a narrower kind: never mapped ("sudden visual loss" is not blindness).
    expect(conceptOfCode('H53.13')).toBeNull();
    expect(conceptOfCode('Z99.99')).toBeNull();
  });
});

describe('the artifact', () => {
  it('carries its versions and counts, and loads once', () => {
    expect(lexicon().meta.mesh).toMatch(/MeSH 2024/);
    expect(lexicon().meta.counts.descriptors).toBeGreaterThan(9000);
    expect(lexicon()).toBe(lexicon());
  });
});
