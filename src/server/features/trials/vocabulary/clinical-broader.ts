/**
 * "Is a" links clinicians use that MeSH's tree does not draw, each with its reason; reviewed, kept small. Sciatica is
 * pain along the sciatic nerve from a lumbar or sacral nerve root, a radiculopathy (ICD-10-CM files lumbar radiculopathy,
 * M54.16, and sciatica, M54.3, side by side); MeSH puts it under sciatic neuropathy only, so "radiculopathy" in a
 * criterion would miss a person whose record says sciatica.
 */
export const CLINICAL_BROADER: Record<string, string[]> = {
  'mesh:D012585': ['mesh:D011843'],
  // Cancer that has spread to the brain is a metastasis, so a cancer (decision 316).
  'cohortly:brain-metastases': ['mesh:D009362'],
  // A microdiscectomy (a hand entry: MeSH has no heading) is a diskectomy and a spine operation.
  'cohortly:microdiscectomy': ['mesh:D017586', 'cohortly:spine-surgery'],
  // Schizophrenia is a psychotic disorder by its definition (ICD-10 F20-F29, DSM-5); MeSH files Schizophrenia beside
  // Psychotic Disorders, so "no psychosis" would miss a person whose record says schizophrenia (decision 180).
  'cohortly:schizophrenia': ['cohortly:psychotic-disorder'],
  // Idiopathic and heritable PAH are WHO group 1 pulmonary arterial hypertension by definition (ESC/ERS 2022); MeSH
  // files Familial Primary Pulmonary Hypertension, whose entry terms include "idiopathic pulmonary arterial
  // hypertension", beside PAH under Hypertension, Pulmonary, so a note's IPAH would not meet "PAH" (decision 183).
  'mesh:D065627': ['mesh:D000081029'],
  // Dementia is a major neurocognitive disorder, an acquired cognitive impairment (DSM-5); MeSH files Dementia beside
  // Cognitive Dysfunction, so "no cognitive impairment" would miss a person whose record says dementia (decision 192).
  'cohortly:dementia': ['cohortly:cognitive-impairment'],
  // A fragility fracture is a broken bone; the hand entry of any fracture names no heading to reach it by (decision 192).
  'cohortly:osteoporotic-fracture': ['cohortly:fracture'],
  // Familial hypercholesterolaemia is high cholesterol by its definition; MeSH files its heading beside (decision 347).
  'cohortly:familial-hypercholesterolemia': ['cohortly:hypercholesterolemia'],
  // Adenocarcinoma and squamous cell carcinoma of the lung are non-small cell lung cancers by definition (WHO
  // classification of lung tumours); MeSH files Adenocarcinoma of Lung under Lung Neoplasms and Adenocarcinoma only, and
  // has no heading for the squamous kind, so a note's "lung adenocarcinoma" would not meet "NSCLC" (decision 194).
  'mesh:D000077192': ['mesh:D002289'],
  'cohortly:lung-adenocarcinoma': ['mesh:D002289'],
  'cohortly:lung-squamous-cell-carcinoma': ['mesh:D002289'],
  // An epidural steroid injection is a spinal injection: a rule of any spinal injection still meets it, while a rule of
  // epidural steroids asks about the steroid alone (a childbirth epidural or a facet injection is not one).
  'cohortly:epidural-steroid-injection': ['cohortly:epidural-injection'],
  // A perforation of the bowel, a peptic ulcer, the oesophagus or the stomach is a gastrointestinal perforation, which
  // MeSH has no heading for (decision 378).
  'mesh:D007416': ['cohortly:gi-perforation'],
  'mesh:D010439': ['cohortly:gi-perforation'],
  'mesh:D004939': ['cohortly:gi-perforation'],
  'mesh:D013275': ['cohortly:gi-perforation'],
};
