/**
 * A MeSH heading's name in plain words: "Diabetes Mellitus, Type 2" -> "type 2 diabetes mellitus"; acronyms keep their
 * capitals, and so do the `eponyms` of a heading named after a person ("Hodgkin disease", "Wolff-Parkinson-White syndrome").
 */
export function plainName(name: string, eponyms?: ReadonlySet<string>): string {
  const ordered = name.includes(',') && !/\d,\d|\(/.test(name) ? name.split(/,\s+/).reverse().join(' ') : name;
  const lowered = ordered.replace(/[\p{L}\p{N}'-]+/gu, (word) => {
    // "Wolff-Parkinson-White": a capitalised part after a person's name in one hyphenated name is a name too.
    let afterName = false;
    return word
      .split('-')
      .map((part) => {
        const plain = afterName && /^\p{Lu}/u.test(part) ? part : plainPart(part, eponyms);
        afterName = Boolean(eponyms?.has(part.replace(/'s?$/, ''))) || (afterName && plain === part);
        return plain;
      })
      .join('-');
  });
  return everydayWords(lowered);
}

/**
 * MeSH's words a patient does not say, in the words that mean the same (decision 309): a neoplasm is a tumour
 * ("triple negative breast tumors"); a replacement arthroplasty of a joint is its replacement ("hip replacement").
 */
function everydayWords(name: string): string {
  return name
    .replace(/\bneoplasms\b/g, 'tumors')
    .replace(/\bneoplasm\b/g, 'tumor')
    .replace(/^replacement arthroplasty$/, 'joint replacement')
    .replace(/\b([a-z]+) replacement arthroplasty$/, '$1 replacement')
    .replace(
      /^cytochrome [pP]-450 (CYP\w+) (inhibitors|inducers)$/,
      (_all, enzyme: string, action: string) => `${ENZYME_ACTION[action]} (${enzyme} ${action})`,
    );
}

/** What an enzyme's inhibitors and inducers do, as a patient can hear it: they change how other medicines are broken down. */
const ENZYME_ACTION: Record<string, string> = {
  inhibitors: 'medicines that slow how the liver breaks down other drugs',
  inducers: 'medicines that speed up how the liver breaks down other drugs',
};

/**
 * "Hodgkin", "Sjogren's": a person's name keeps its capital, as does an acronym ("HIV", "SARS-CoV-2") and a letter that
 * names a type ("hepatitis A", "vitamin D"); other words are lower case.
 */
const plainPart = (part: string, eponyms?: ReadonlySet<string>) =>
  /\p{Lu}.*\p{Lu}|\d/u.test(part.slice(1)) || /^\p{Lu}$/u.test(part) || eponyms?.has(part.replace(/'s?$/, '')) ? part : part.toLowerCase();

/**
 * A name without the example it gives: "blood thinners (such as warfarin)" is "blood thinners". A class read from
 * another medicine is no warfarin, and the class's own name is what one member is told apart from (decisions 337, 339).
 */
const EXAMPLE = /\s*\((?:such as|like|e\.g\.,?|for example)\s[^()]*\)/gi;
export function withoutExample(name: string): string {
  return name.includes('(') ? name.replace(EXAMPLE, '') : name;
}
