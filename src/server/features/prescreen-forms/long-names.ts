/**
 * A long technical name asked of a patient leads with the disease it is a kind of (decision 247): "primary cutaneous
 * anaplastic large cell lymphoma" is asked as "a lymphoma of the primary cutaneous anaplastic large cell type". A
 * patient who knows only "lymphoma" from a letter or a doctor meets the word they know first, and the subtype reads as
 * what it is, a subtype; it is how MeSH and ICD-10 write such names (the kind, then its qualifiers).
 */

/** The disease words a subtype's name ends with, each a word a patient is told. */
const KIND =
  /^(.+?)\s+(lymphomas?|leuka?emias?|carcinomas?|sarcomas?|cancers?|tumou?rs?|neoplasms?|myelomas?|melanomas?|gliomas?|blastomas?|adenomas?|an(?:a)?emias?|(?:muscular\s+)?dystroph(?:y|ies)|myopath(?:y|ies)|neuropath(?:y|ies)|cardiomyopath(?:y|ies))$/i;

/** Names of this many words or more lead with their kind; shorter ones read as written ("small cell lung cancer"). */
const LONG_NAME_WORDS = 5;

/** The English name as a patient question asks it. */
export function kindFirst(name: string): string {
  const words = name.trim().split(/\s+/);
  if (words.length < LONG_NAME_WORDS || /[,()]|\b(?:or|and|with|without|of|in|other\s+than|except)\b/i.test(name)) return name;
  const parts = KIND.exec(name.trim());
  if (!parts) return name;
  const [, subtype, kind] = parts;
  // "Lymphomas of the ... type" (plural) take no article.
  const article = /s$/i.test(kind) ? '' : /^[aeiou]/i.test(kind) ? 'an ' : 'a ';
  return `${article}${kind.toLowerCase()} of the ${subtype} type`;
}
