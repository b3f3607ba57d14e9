// Concepts the product makes from a record's own words rather than finds in MeSH: their ids carry a prefix.

/** The id prefix of an allergy to a named medicine: `cohortly:allergy-to:<the medicine's concept id>`. */
export const ALLERGY_PREFIX = 'cohortly:allergy-to:';

/** The id prefix of a trial's own medicine, named as its record names it: `cohortly:study-medicine:<name>` (decision 108). */
export const STUDY_MEDICINE_PREFIX = 'cohortly:study-medicine:';
