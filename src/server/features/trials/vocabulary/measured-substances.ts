import { findAnalytes } from './analytes';

/**
 * A substance named as what a test measures, not as a medicine the person takes: read the same way in a note and in a
 * criterion (decisions 298 and 334).
 */

/**
 * A substance named with a test's result ("anti-PLA2R antibodies positive", "antibodies were negative", "negative for
 * hepatitis B surface antigen", "low complement", "elevated troponin"; decision 298): a test of the person's blood, not
 * a medicine they take ("low-dose aspirin" stays a medicine).
 */
const TEST_RESULT_AFTER =
  /^\s*(?:\([^()]{0,20}\)\s*)?(?:(?:test|titers?|levels?|status|serology|screen(?:ing)?)\s+)?(?:(?:was|were|is|are|came back|returned|tested)\s+)?(?:positive|negative|detected|not detected|undetectable|reactive|non-?reactive)\b/i;
const TEST_RESULT_BEFORE =
  /\b(?:positive|negative|seropositive|seronegative|reactive)\s+(?:for\s+)?(?:[\w-]+\s+){0,3}$|\b(?:low|high|elevated|raised|decreased|depressed|undetectable)\s+(?:serum\s+|plasma\s+|blood\s+)?$/i;

/**
 * A substance named as what a test measures ("estrogen receptor positive", "creatinine clearance", "albumin-to-creatinine
 * ratio", "insulin level", "glucose tolerance test", a tumour's "PD-L1 TPS 60%" or "PD-L1 expression"; decision 298), or
 * a test named after one ("partial thromboplastin time", "aspartate aminotransferase", "insulin resistance"; decision
 * 334): the person's test, not a medicine they take.
 */
const TEST_NAME_AFTER =
  /^(?:\s*-\s*|\s+)(?:receptors?|clearance|ratio|(?:to|\/)[- ]?[a-z]+[- ]ratio|levels?|tolerance test|challenge(?: test)?|(?:stimulation|suppression) test|uptake|assay|(?:\([\w-]{1,10}\)\s*)?(?:TPS|CPS|H-?score|IHC|expression|staining|tumou?r proportion score|combined positive score)|time|amino-?transferases?|transaminases?|resistan(?:ce|t))\b/i;
/**
 * "PLA2R antibodies", "HLA antibody", "HBs antigen": a test for what the body makes against it; not when the substance is
 * itself named "anti-" something ("anti-CD20 antibody" is a medicine).
 */
const ANTIBODY_TEST_AFTER = /^(?:\s*-\s*|\s+)(?:antibod(?:y|ies)|antigen)\b/i;
const ANTI_BEFORE = /\banti[\s-]*$/i;

/**
 * "Urine calcium", "blood glucose", "diffusing capacity of the lung for carbon monoxide", "protein/creatinine": the
 * fluid a laboratory measures it in, or the capacity measured with it (decision 334).
 */
const TEST_NAME_BEFORE = /(?:-to-|\/)\s*$|\b(?:serum|plasma|blood|urine|urinary)\s+$|\bcapacity\s+(?:of\s+(?:the\s+)?lungs?\s+)?for\s+$/i;

/**
 * What the medicine is for, not the medicine: "glucose-lowering medication", "uric acid lowering therapy" (decision 334).
 */
const TARGET_OF_A_MEDICINE_AFTER = /^[\s-]+(?:lowering|reducing)\b/i;

/**
 * "Plasma glucose 210", "plasma aldosterone", "serum HIV-1 RNA", "plasma levels of X": the sample a value is measured in,
 * not a blood product given to the person (decision 367). Only the sample's own word, and only before what a laboratory
 * measures (an analyte, glucose, a virus's RNA or DNA, a level); "convalescent plasma", "plasma exchange" stay products.
 */
const SAMPLE = /^(?:plasma|serum|whole\s+blood)$/i;
const MEASURED_AFTER_SAMPLE = /^\s+(?:fasting\s+)?(?:(?:levels?|concentrations?)\b|glucose\b|(?:[\w-]+\s+){0,2}(?:RNA|DNA|viral\s+load)\b)/i;
const AN_ANALYTE_NEXT = /^\s+(?:fasting\s+)?(?=\w)/;

function namesSample(text: string, start: number, end: number): boolean {
  if (!SAMPLE.test(text.slice(start, end))) return false;
  const after = text.slice(end, end + 60);
  if (MEASURED_AFTER_SAMPLE.test(after)) return true;
  const next = AN_ANALYTE_NEXT.exec(after)?.[0].length;
  return next !== undefined && findAnalytes(after).some((mention) => mention.start === next);
}

/**
 * "Post-bronchodilator FEV1", "pre-bronchodilator spirometry": when a breathing test is done, before or after a puff
 * given for the test, not a medicine the person takes (decision 372).
 */
const TEST_TIMING_BEFORE = /\b(?:pre|post)[\s-]*$/i;
const namesTestTiming = (text: string, start: number, end: number) =>
  /^bronchodilat/i.test(text.slice(start, end)) && TEST_TIMING_BEFORE.test(text.slice(Math.max(0, start - 6), start));

/** Whether the substance at start..end of `text` is named as a test, its result or a medicine's target. */
export function namedAsMeasured(text: string, start: number, end: number): boolean {
  const after = text.slice(end, end + 50);
  const before = text.slice(Math.max(0, start - 40), start);
  return (
    TEST_RESULT_AFTER.test(after) ||
    TEST_RESULT_BEFORE.test(before) ||
    TEST_NAME_AFTER.test(after) ||
    (ANTIBODY_TEST_AFTER.test(after) && !ANTI_BEFORE.test(before) && !/^anti/i.test(text.slice(start, end))) ||
    TEST_NAME_BEFORE.test(before) ||
    TARGET_OF_A_MEDICINE_AFTER.test(after) ||
    namesSample(text, start, end) ||
    namesTestTiming(text, start, end)
  );
}
