import { describe, expect, it } from 'vitest';
import { formatMetrics, loadSharedStudies, measureCorpus, SHARED_STUDIES, share, studiesOfPart } from '../../support/criteria-corpus';

/**
 * Issue 10's figures over the 94 shared ClinicalTrials.gov records (read in place, never copied), held as a
 * ratchet: each figure may improve, never get worse. Before/after figures: docs/criteria-reading.md.
 */
const studies = loadSharedStudies();

if (!studies) console.info(`criteria corpus skipped: ${SHARED_STUDIES} is absent (the shared data folder ../shared is not mounted)`);

describe.skipIf(!studies)('criteria reading over the shared ClinicalTrials.gov records', () => {
  const metrics = measureCorpus(studies ?? []);

  it('prints the figures, and each half of the split (decision 128; npm run eval:criteria prints them side by side)', () => {
    console.info(`\n${formatMetrics(metrics)}\n`);
    for (const part of ['development', 'evaluation'] as const)
      console.info(`${part} half:\n${formatMetrics(measureCorpus(studiesOfPart(studies ?? [], part)))}\n`);
    if (metrics.placeholders.length) console.info(`placeholders:\n${metrics.placeholders.slice(0, 20).join('\n')}`);
    if (metrics.nonAgeAges.length) console.info(`age rules from non-age numbers:\n${metrics.nonAgeAges.join('\n')}`);
    expect(metrics.records).toBe(94);
  });

  it('holds the thresholds', () => {
    // Before issue 10: 9.8% with a rule, 5.0% needing no review, 72.4% verbatim, 11 placeholders, 0 non-age ages.
    // Issue 10's goals: >= 60% with a rule, >= 35% needing no review, <= 10% verbatim, zero of the last two.
    // Held here at what is reached (a ratchet: raise these as the reader improves; lower one only when wrong
    // rules are removed, and say which). 0.57 -> 0.565 on 2026-11-23: concepts named after "except" / "other
    // than" no longer become the rule ("malignancy other than ... skin cancer" was "must not have skin cancer").
    // 2026-11-23, second pass (docs/decisions/028-criteria-general-phrasings.md): 0.565 -> 0.68 and 0.2 -> 0.285; then
    // 0.68 -> 0.675 when wrong rules went after the hand-check: past treatment in an inclusion read as "taking
    // now" (7 rules), a heavy-smoker limit read as "must not smoke". Third pass (decision 036): 0.675 -> 0.705 and
    // 0.285 -> 0.275 (rules 0.675 -> 0.705): sex-only criteria, pain scores and more site checks read; severity, course,
    // anatomy and pattern-of-use words, subtype synonyms ("lumbar fracture" read as a spine fracture), durations in
    // words and allergies to a named allergen now flagged: 37 rules that dropped part of their text are out of
    // "no review" (the hand-checks counted such rules wrong).
    // Fourth pass (decision 040): 0.705 -> 0.7 and 0.275 -> 0.27. Wrong rules removed: an allergy read as "an
    // allergy to medicines like this one" when it was to a food, a metal, an implant material or hay fever (6 rules);
    // the kinds of an investigational product ("drug, vaccine, or device") read as any vaccine; a condition a
    // treatment is for, or a plan, read as the exclusion ("facetectomy to treat back pain", "planned ... start of
    // chemotherapy"); consenting to the study's injection read as taking one. Flagged now, each a rule that dropped
    // words: one unread content word ("interstitial pneumonia", "congenital deformity", "spondylolisthesis Gr II"), a
    // missed list item after ", and", a second measure beside a lab rule, a smoking amount in packs. ASA classes in
    // Roman numerals are read. Then 0.7 -> 0.695 after hand-check F: an inclusion's list inside parentheses
    // ("Degenerative pathologies (one or multiple of the following: ...)") is left to a person, not one item of it;
    // after hand-check G, inclusions that allow therapies ("can be used including methotrexate") or name an unread
    // alternative ("epidural fibrosis and/or disc herniation"), and examples of a planned treatment, give no rule.
    // Fifth pass (decision 045): 0.27 -> 0.275 (27.7%): durations beside a condition are read ("history of low back pain
    // for greater than three months", "Back pain for less than 3 months"), so those rules hold their whole text. 0.695 ->
    // 0.69 (69.4%): three wrong rules of hand-check H removed: non-adherence to immunosuppressants read as "must not take"
    // them, one of several background treatments joined by "and/or" across list lines read as required, and products
    // applied to the nerve during surgery read as taking steroids. Then 0.69 -> 0.685 (69.0%) after hand-check I, six
    // more wrong rules removed: adverse events "from prior" therapy read as having taken it (2), a judgement in a
    // criterion's "Note:" read as the criterion, a waiting list for a transplant read as having one, "low back pain from
    // causes other than" disc herniation and "axial back pain only" read as "must not have back pain".
    // Qualifiers (decision 077): 0.275 -> 0.295 (29.9%): severity, course, spine-part and side words beside a condition
    // are held by the rule ("severe osteoporosis", "lumbar disc herniation") and asked in the question. 0.685 -> 0.68
    // (68.3%) after hand-checks K and L: a past event's lab value, the definition of controlled pressure, "systemic
    // therapy" read as cancer treatment, an adverse event attributed to a therapy, a product put into the wound, a
    // depression scale read as depression, a subgroup's requirement and a far negation ("must not have received prior
    // therapy for X" read as taking it) no longer give a rule. 0.68 -> 0.675 (67.9%) after hand-check M: one of two
    // measures an inclusion offers, a change in weight read as the weight, a smoking history read as smoking now.
    // Concept lists (decision 083): 0.295 -> 0.30 (30.1%): organ-system classes, unstable angina, "at least one of the
    // following" items read together, "with or without"; hand-checks O and P: causes, complications, "systemic" (67.8%).
    // Eighth pass (decision 090): 0.30 -> 0.305 (30.9% of 1273 criteria, one-line numbered lists split, cohort headings
    // dropped): labels a lab threshold defines, the "or" of two times before a severity, taking-part words beside an age.
    // 0.675 -> 0.67 (67.5%) after hand-check R: the condition an operation "to treat leg/back pain" is for, and anxiety as
    // what complications "would affect", no longer give a rule.
    // Ninth pass (decision 105): 0.305 -> 0.31 (31.3%, 399 of 1273): the same threshold in another unit, eGFR formula
    // names, the screening period, the ASA class's name, "initiation of" a treatment as a point in time, contraception
    // with its post-menopausal and sterile alternatives. Rules 67.4% (858): a risk's examples read as the exclusion
    // (hand-check S) no longer give a rule. Hand-checks S 96% and T 98%, drawn from all rules (docs/criteria-reading.md).
    // Tenth pass (decision 107): 0.31 -> 0.325 (32.8%, 418 of 1273) and 0.67 -> 0.68 (68.5%, 872): allergies to named
    // medicines, illnesses nobody named as the investigator's call, participation in another study however written,
    // protocol-template section labels, concepts clinicians list (cardiopulmonary disease, decompensated liver disease,
    // thrombophilia, an infection where the treatment is given, latex allergy...). Census U of the 34 rules the pass
    // changed: 34 correct, 27 strict.
    // Eleventh pass (decision 108): 0.325 -> 0.327 (33.0%, 420 of 1273) and 0.68 -> 0.685 (68.9%, 877): an allergy to
    // the trial's own medicine by name (the record's drug interventions), a tumour concept with its guards, a solid or
    // spreading tumour as cancer. Census V of the 14 rules the pass changed: 13 correct (one wrong, in review, of an
    // older class), 4 strict (docs/criteria-reading.md).
    // Twelfth pass (decision 110): 0.327 -> 0.35 (35.0%, 446 of 1273; issue 10's goal) and 0.685 -> 0.695 (70.0%, 891):
    // what the surgical team finds in the operation, clinically significant test findings, non-adherence and a planned
    // move as site checks; a section label that says when its criteria are checked; "surgery for X" as what the
    // operation was for; a positive test of HIV as HIV; "and/or" as "or". Census W of the 27 rules the pass changed: 27
    // correct, 26 strict (docs/criteria-reading.md).
    // Issue 30 (decision 127): the 308 MeSH terms collected from these same records (mesh.json) retired for the MeSH
    // 2024 lexicon, whose diseases' preferred names the reviewed reach reads: 0.700 -> 0.710 (904), no-review 446.
    // Issue 30 (decision 140): the concept reader on the whole MeSH reach, with MeSH's narrower concepts in review, and a
    // past operation and failed conservative treatment as trial idioms: 0.710 -> 0.75 (75.6%, 963), no-review 451.
    // Issue 30 (decisions 150-152): 0.75 -> 0.765 (76.6%, 975), no-review 452; a patient question in plain words for
    // 64.7% (823) once staff-only criteria get what a patient can honestly answer beside their check.
    // Issue 30 (decision 161): 0.765 -> 0.805 (80.7%, 1027), no-review 0.35 -> 0.39 (39.5%, 503): findings on the study's
    // imaging and examination, graded toxicities, tumour measures and the study's own operation as site checks; consent
    // beside staying the whole study back in review (hand-check seed 30150, #39).
    expect(share(metrics.withRule, metrics.criteria)).toBeGreaterThanOrEqual(0.805);
    expect(share(metrics.noReview, metrics.criteria)).toBeGreaterThanOrEqual(0.39);
    // Issue 30 (decision 191): 0.64 -> 0.635 (63.9%, 814): a vaccine named for its antigen or kind ("a live vaccine",
    // "influenza vaccination") is no longer read as any vaccine, and the vocabulary has no concept for it, so no rule.
    expect(share(metrics.askedInPlainWords, metrics.criteria)).toBeGreaterThanOrEqual(0.635);
    expect(share(metrics.verbatimQuestions, metrics.patientQuestions)).toBeLessThanOrEqual(0.1);
    expect(metrics.placeholders).toEqual([]);
    expect(metrics.nonAgeAges).toEqual([]);
    // Every patient question has its Spanish wording, or is marked for staff to write it (needsSpanish, decision 223).
    expect(metrics.spanishMissing).toBe(0);
  });
});
