import type { CriterionKind } from '../../../../contract/trials';
import { leftoverNumbers, plainReasons, reviewed, type Span, spanOf, type TextRule } from './text';

/**
 * Status criteria: pregnancy and breastfeeding, contraception, smoking, a criterion of sex words alone, healthy volunteers.
 */

const SMOKING =
  /\b(?:current(?:ly)?\s+(?:a\s+)?smok\w*|active\s+smok\w*|smokers?|smoking|smoke[sd]?|tobacco|nicotine|cigarettes?|e-cigarettes?|vap(?:e|ing))\b/i;

export function readSmokingRule(kind: CriterionKind, text: string): TextRule | null {
  const found = SMOKING.exec(text);
  if (!found) return null;
  const lower = text.toLowerCase();
  const never = /\b(?:non-?smok\w*|never[- ]smok\w*|no (?:history of )?smoking|not (?:a )?(?:current )?smok\w*|does not smoke)\b/.exec(lower);
  const former = /\b(?:former|ex-?smok\w*|quit|stopped|abstinent)\b/.test(lower);
  const amount = /pack[- ]?years?|packs?\s*(?:per|\/|a)\s*day|\d\s*packs?\b|cigarettes?\s*(?:per|\/|a)\s*day|\d+\s*cigarettes/i.test(text);
  // "Nicotine (more than 20 cigarettes per day)" excluded: heavy smokers only, not "must not smoke".
  if (amount && kind === 'exclusion' && !never && !/\b(?:current(?:ly)?|active)\s+(?:a\s+)?smok\w*/i.test(text)) return null;
  // "A smoking history of 5-30 pack years": a former smoker has one too; "must smoke now" would refuse them.
  if (kind === 'inclusion' && !never && /\bhistory\b/i.test(lower) && !/\b(?:current(?:ly)?|active)\b/i.test(lower)) return { rule: null, needsReview: true };
  // "Smokers or non-smokers", "current or never smokers": both are welcome, so smoking restricts nobody.
  const rest = never ? lower.slice(0, never.index) + ' '.repeat(never[0].length) + lower.slice(never.index + never[0].length) : '';
  if (never && /\bor\b/.test(lower) && /(?<!\b(?:ex|former|non|never)[- ]?)\b(?:current(?:ly)?\s+)?smokers?\b/.test(rest) && !former)
    return { rule: null, needsReview: true };
  let smoker: boolean;
  if (never) smoker = kind === 'exclusion';
  else smoker = kind === 'inclusion';
  const spans: Span[] = [[found.index, found.index + found[0].length]];
  if (never) spans.push([never.index, never.index + never[0].length]);
  const extra = new Set([
    'smoker',
    'smokers',
    'smoking',
    'smoke',
    'tobacco',
    'nicotine',
    'products',
    'product',
    'cigarettes',
    'cigarette',
    'e-cigarettes',
    'vaping',
    'vape',
    'use',
    'user',
    'users',
    'regular',
    'daily',
    'habit',
  ]);
  return reviewed({ type: 'smoking', smoker, span: spanOf([Math.min(...spans.map((s) => s[0])), Math.max(...spans.map((s) => s[1]))]) }, [
    former && 'formerSmoker',
    amount && 'amountSmoked',
    ...plainReasons(text, spans, 1, extra),
  ]);
}

// "Nursing" is breastfeeding, not a nursing home; a positive hCG is a positive pregnancy test.
const PREGNANCY =
  /\b(pregnan\w*|breast[- ]?feeding|lactating|lactation|nursing(?!\s+(?:homes?|facilit\w*|care|staff|students?)))\b|(?:\b|(?<=β))(?:beta[- ]?|β[- ]?)?hcg\b/i;

const CONTRACEPTION = /\b(contracepti\w*|birth control|abstinen\w*|barrier method|intrauterine device|iud|sterili[sz]ed|vasectomy)\b/i;

const PREGNANCY_WORDS = new Set(
  `pregnant pregnancy pregnancies breastfeeding breastfeed breast feeding lactating lactation nursing mothers mother possibly possible
  potentially planning plan plans planned become becoming get getting lady ladies girls intend intending intention negative positive test
  serum urine hcg childbearing potential wocbp female females women woman male males men man during period duration throughout while wish wishing wishes expecting conceive conceiving intend intends beta β
  interested interest desire desires desiring want wants wanting hoping hope hopes trying attempting following next coming`
    .split(/\s+/)
    .filter(Boolean),
);

/** Pregnancy and breastfeeding (not allowed), or a requirement to use contraception. */
export function readPregnancyRule(kind: CriterionKind, text: string): TextRule | null {
  const pregnancy = PREGNANCY.exec(text);
  let contraception = CONTRACEPTION.exec(text);
  // "Women must be non-pregnant, non-lactating, sterilized or postmenopausal": being sterilised is a reason not to be
  // able to become pregnant, not a method the person is asked to use.
  if (contraception && /^(?:sterili[sz]ed|vasectomy)$/i.test(contraception[0]) && !/\b(?:use|using|agree\w*|practi[sc]\w*|methods?)\b/i.test(text))
    contraception = null;
  if (contraception && (kind === 'inclusion' || !pregnancy || contraception.index < pregnancy.index)) {
    // "Must agree to use highly effective contraception": willing to use it (an exclusion "unwilling to use" alike).
    const extra = new Set([
      ...PREGNANCY_WORDS,
      'agree',
      'agrees',
      'willing',
      'unwilling',
      'use',
      'highly',
      'effective',
      'adequate',
      'acceptable',
      'reliable',
      'method',
      'methods',
      'contraception',
      'contraceptive',
      'birth',
      'control',
      'men',
      'partners',
      'partner',
      'sexually',
      'active',
      'throughout',
      'after',
      'last',
      'until',
      'end',
      'protocol',
      'specified',
      'medically',
      'two',
      'one',
      'least',
      'form',
      'forms',
    ]);
    // "Must be post-menopausal, surgically sterile, or using birth control": the question asks only those who could get
    // pregnant ("If you or your partner could get pregnant, will you use birth control?"), so the women who cannot are
    // in it. Only as an alternative to using it, never beside a "not" ("sterile; hormonal contraception not allowed").
    if (
      /\b(?:post-?\s?menopausal|surgically\s+steril\w*|steril(?:e|i[sz]ed))\b[^.;]{0,80}\bor\s+(?:\w+\s+){0,2}(?:using|use|practi[sc]\w*|agree\w*)\b/i.test(
        text,
      ) &&
      !/\b(?:not|no|nor|never)\b/i.test(text)
    )
      for (const word of ['post', 'menopausal', 'postmenopausal', 'surgically', 'sterile', 'sterilized', 'sterilised']) extra.add(word);
    return reviewed(
      { type: 'contraception', required: true, span: spanOf([contraception.index, contraception.index + contraception[0].length]) },
      plainReasons(text, [[contraception.index, contraception.index + contraception[0].length]], 2, extra),
    );
  }
  if (!pregnancy) return null;
  const negated = /\b(?:(?:not|no)\s+|non-?\s*)(?:be\s+)?(?:currently\s+)?(?:pregnan|breast|lactat|nursing)/i.test(text) || /\bnegative\b/i.test(text);
  if (kind === 'inclusion' && !negated) return null;
  const span: Span = [pregnancy.index, pregnancy.index + pregnancy[0].length];
  const extra = new Set([...PREGNANCY_WORDS, 'breast', 'feeding']);
  return reviewed({ type: 'pregnancy', allowed: false, span: spanOf(span) }, plainReasons(text, [span], 0, extra));
}

const SEX_WORDS = /^(?:males?|females?|men|women|man|woman|boys?|girls?|genders?|sex(?:es)?)$/;

const SEX_LINK_WORDS = new Set(
  'both any all either and or & of are is be can may patients participants subjects volunteers people persons individuals eligible included inclusion accepted welcome'.split(
    ' ',
  ),
);

/** "Male or female", "Any gender", "Both sexes", "Women": a criterion that says nothing but who may take part by sex. */
export function readSexRule(kind: CriterionKind, text: string): TextRule | null {
  if (kind !== 'inclusion') return null;
  // "Male or female (sex assigned at birth)": a bracket that says how sex is counted names no other requirement when both
  // sexes may take part; one that limits ("(females only)", "(not pregnant)") is read, and refuses the reading below
  // (decision 225).
  const unbracketed = text.replace(/\s*\(([^()]*)\)/g, (whole, inside: string) =>
    /\b(?:only|not|no|non|except|excluding|unless|must|pregnan\w*|aged?|years?|\d)\b/i.test(inside) ? whole : ' ',
  );
  const words =
    unbracketed
      .replace(/^\s*\(?\d{1,2}[.)]\s*/, '')
      .toLowerCase()
      .match(/[a-z]+/g) ?? [];
  if (!words.length || !words.every((word) => SEX_WORDS.test(word) || SEX_LINK_WORDS.has(word)) || !words.some((word) => SEX_WORDS.test(word))) return null;
  const female = words.some((word) => /^(?:females?|women|woman|girls?)$/.test(word));
  const male = words.some((word) => /^(?:males?|men|man|boys?)$/.test(word));
  const anyOf = words.some((word) => /^(?:genders?|sex(?:es)?)$/.test(word));
  // "Gender" or "sex" alone names no sex: only "any/both/all/either gender" opens the trial to all.
  if (anyOf && !female && !male && !words.some((word) => /^(?:both|any|all|either)$/.test(word))) return null;
  const sex = (female && male) || anyOf ? 'all' : female ? 'female' : 'male';
  // Only a reading that refuses no one sets a bracket aside: "Males (with partners of childbearing potential)" is more.
  if (sex !== 'all' && unbracketed !== text) return null;
  const first = text.search(/[a-z]/i);
  const last = text.search(/[a-z][^a-z]*$/i);
  return { rule: { type: 'sex', sex, span: spanOf([first, last + 1]) }, needsReview: false };
}

/** "Healthy volunteers", "healthy adult participants": healthy people are what the trial takes. */
export function readHealthyRule(kind: CriterionKind, text: string): TextRule | null {
  const match =
    /\bhealthy\s+(?:adult\s+|male\s+|female\s+|japanese\s+)?(?:volunteers?|participants?|subjects?|individuals?|people|persons?|adults?|men|women|males?|females?)\b/i.exec(
      text,
    );
  if (!match || kind !== 'inclusion') return null;
  const span: Span = [match.index, match.index + match[0].length];
  // "Healthy controls aged 18-65": the numbers (an age range, a BMI) are more than this rule.
  return reviewed({ type: 'healthy_volunteers', accepted: true, span: spanOf(span) }, [
    leftoverNumbers(text, [span]) && 'numbers',
    ...plainReasons(text, [span], 1, new Set(['healthy', 'volunteers', 'volunteer', 'generally', 'good', 'general', 'health'])),
  ]);
}
