import type { CriterionKind } from '../../../../contract/trials';
import { leftover, leftoverNumbers, plainReasons, reviewed, type Span, spanOf, type TextRule } from './text';
import { exceptionScope } from './exceptions';
import { withoutRationale } from './rationale';

/**
 * Status criteria: pregnancy and breastfeeding, contraception, smoking, a criterion of sex words alone, healthy volunteers.
 */

const SMOKING =
  /\b(?:current(?:ly)?\s+(?:a\s+)?smok\w*|active\s+smok\w*|smokers?|smoking|smoke[sd]?|tobacco|nicotine|cigarettes?|e-cigarettes?|vap(?:e|ing))\b/i;

export function readSmokingRule(kind: CriterionKind, text: string): TextRule | null {
  const found = SMOKING.exec(text);
  if (!found) return null;
  // "Substance use disorder, excluding nicotine and caffeine": smoking named only as an exception says nothing of it; the
  // concept reader reads the rest (decision 336).
  const excepted = exceptionScope(text);
  if (excepted && found.index >= excepted[0] && found.index < excepted[1]) return null;
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
  interested interest desire desires desiring want wants wanting hoping hope hopes trying attempting following next coming tests
  one two three four five six seven eight nine ten eleven twelve`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * "Of child-bearing potential", "of reproductive potential", "the last dose of study drug": who the pregnancy and
 * contraception rules are about, and the study's own product that sets their period; they say no more than those rules
 * (decision 242). Spans, so a span's words are read only where they stand together.
 */
const SAID_BY_THE_RULE = [
  /\b(?:child[- ]?(?:bearing|producing)|reproductive|procreative)\s+(?:potential|age)\b/gi,
  // "Females able to bear children", "women who can become pregnant": the same potential in words (decision 378).
  /\b(?:(?:who\s+(?:are|is)\s+)?(?:able|capable)\s+(?:to|of)\s+(?:bear(?:ing)?\s+(?:children|a\s+child)|becom(?:e|ing)\s+pregnant|conceiv(?:e|ing))|who\s+(?:can|could|may)\s+(?:become\s+pregnant|bear\s+children|conceive))\b/gi,
  /\b(?:(?:the|this)\s+)?(?:study|trial|investigational)\s+(?:drugs?|treatments?|agents?|medications?|products?|therap(?:y|ies))\b/gi,
  /\b(?:the\s+)?entire\s+(?:study|trial|treatment)(?:\s+(?:treatment\s+)?period)?\b/gi,
];

/** A method of contraception by name: what a list of examples of the required contraception is made of. */
const METHOD_WORDS = new Set(
  `hormonal barrier double oral pill pills contraceptive contraceptives contraception intrauterine intra uterine device devices iud iuds condom condoms
  diaphragm diaphragms cervical cap spermicide spermicidal gel foam implant implants implanted injectable injectables injected injection
  patch patches ring vaginal abstinence abstain true sexual complete surgical sterilization sterilisation sterilized sterilised vasectomy vasectomised
  vasectomized partner tubal ligation bilateral method methods birth control or and a an the with plus of e.g. eg`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * "(hormonal or barrier method; abstinence)", "such as the pill or an intrauterine device": examples of the contraception
 * the rule already requires, which the study's staff explain; a list of method names and nothing else (decision 242). A
 * method required by itself ("must use condoms") is narrower than any contraception, and stays a word a person reads.
 */
function methodExamples(text: string): Span[] {
  const spans: Span[] = [];
  const lists =
    /\(([^()]{3,200})\)|\b(?:such\s+as|e\.\s?g\.,?|eg,?|for\s+example,?|including|includes?:?)\s+([^.;()]{3,200}?)(?=\s*(?:[.;)]|$|\b(?:during|for|from|until|through|throughout|prior|before|after|while)\b))/gi;
  for (const match of text.matchAll(lists)) {
    // "(for example, the pill or condoms)": the words that say these are examples are not methods themselves.
    const list = (match[1] ?? match[2]).replace(/^\s*(?:such\s+as|e\.\s?g\.,?|eg,?|for\s+example,?|including|i\.e\.,?)\s*/i, '');
    const words = list.toLowerCase().match(/[a-z.]+/g) ?? [];
    if (words.length && words.every((word) => METHOD_WORDS.has(word.replace(/\.$/, '')) || /^(?:e\.g|etc)\.?$/.test(word)))
      spans.push([match.index, match.index + match[0].length]);
  }
  return spans;
}

/** "Nursing a child", "breastfeeding an infant": who is breastfed says no more than breastfeeding. */
const NURSING_A_CHILD = /\b(?:nursing|breast-?\s?feeding|lactating)\s+(?:a|an|her|their)\s+(?:child|infant|baby)\b/gi;

/** "Are excluded from this study", "may not take part", "are not eligible": an exclusion's own words, saying no more than it. */
const NOT_TAKING_PART =
  /\b(?:(?:are|is|will\s+be|shall\s+be)\s+)?(?:excluded|ineligible|not\s+(?:be\s+)?eligible)(?:\s+(?:from|for)\s+(?:participation\s+in\s+)?(?:this|the)\s+(?:study|trial))?\b|\b(?:(?:may|can|will|shall)\s+not|cannot|(?:are|is)\s+not\s+(?:allowed|permitted)\s+to)\s+(?:take\s+part|participate|be\s+(?:enrolled|included))(?:\s+in\s+(?:this|the)\s+(?:study|trial))?\b/gi;

/** Not pregnant or breastfeeding now, or its test: a requirement of its own beside contraception. */
const NOT_PREGNANT_NOW =
  /\bpregnancy\s+tests?\b|\b(?:beta[- ]?|β[- ]?|b-)?hcg\b|\bnegative\b|\bnon-?\s?(?:pregnant|lactating)\b|\bnot\s+(?:be\s+)?(?:currently\s+)?(?:pregnant|breast-?\s?feeding|lactating|nursing)\b|\b(?:breast-?\s?feeding|lactating|nursing)\b/i;

/** A time before now ("within the last 9 months", "postpartum", "ago"), not "the last dose" that ends a plan's period. */
const PAST_PREGNANCY =
  /\b(?:last|past)\s+(?:\d+\s*|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:\(\d+\)\s*)?|few\s+|several\s+)?(?:days?|weeks?|months?|years?)\b|\bin\s+the\s+past\b|\b(?:previous(?:ly)?|prior(?!\s+to\b)|history|recent(?:ly)?|post-?\s?partum|delivered|gave\s+birth|ago)\b/i;

/**
 * "Pregnant, lactating, or of child-bearing potential", "pregnant women or women of childbearing potential": being able
 * to become pregnant listed as an item of its own refuses every such woman, which "not pregnant" does not hold; only
 * where the potential names who the rule is about ("women of childbearing potential who are pregnant") does it say no more.
 */
const POTENTIAL_AS_AN_ITEM =
  /(?:,|\bor)\s+(?:(?:be|are|is)\s+)?(?:(?:women|females?|persons?|participants?|patients?)\s+)?(?:of|with)\s+(?:child[- ]?(?:bearing|producing)|reproductive)\s+(?:potential|age)\s*(?=[.;,)]|$)/i;

/** "Non-pregnant", "non-lactating": the prefix is the negation the rule already reads. */
const NON_PREFIX = /\bnon-?\s?(?=pregnan|lactat|breast-?\s?feed|nursing)/gi;

const PREGNANCY_TEST = /\bpregnancy\s+test|\b(?:beta[- ]?|β[- ]?|b-)?hcg\b|\bchorionic\s+gonadotropin\b/i;

/**
 * "Within 72 hours prior to registration", "with a sensitivity of at least 25 mIU/mL", "beta human chorionic
 * gonadotropin": when and how the site runs its pregnancy test, which says no more than the rule's "not pregnant"
 * (decision 242). Only beside a pregnancy test; "pregnant within the past 6 months" keeps its time.
 */
const TEST_AS_THE_SITE_RUNS_IT = [
  /\b(?:within|no\s+more\s+than|≤|<=)\s*\d+(?:\s*-\s*\d+)?\s*(?:hours?|hrs?|days?)\b(?:\s+(?:prior\s+to|before|of)\s+(?:the\s+)?(?:start(?:ing)?\s+(?:of\s+)?|first\s+dose\s+of\s+|beginning\s+(?:of\s+)?|initiation\s+of\s+)?(?:(?:the\s+)?(?:study|trial)\s+)?[\w-]+)?/gi,
  /\b(?:with\s+a\s+)?(?:minimum\s+)?sensitivity\s+(?:of\s+)?(?:at\s+least\s+)?\d+\s*m?[il]u\s*\/\s*(?:ml|l)\b/gi,
  /\b(?:beta[- ]?|β[- ]?|b-)?(?:human\s+)?chorionic\s+gonadotropin\b/gi,
  /\b(?:done|performed|proven|conducted|result)\b/gi,
];

const NAMED_METHOD =
  /^(?:hormonal|barrier|double|oral|pills?|intrauterine|iuds?|condoms?|diaphragms?|spermicid\w*|implant\w*|inject\w*|abstinence|abstain|vasectom\w*|ligation|patch(?:es)?|rings?)$/;

const spansOf = (text: string, patterns: RegExp[]): Span[] =>
  patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match): Span => [match.index, match.index + match[0].length]));

/**
 * "For 3 months after the last infusion of ABC-123", "for at least six weeks following transplant", "one year post gene
 * transfer": how long contraception goes on after the study's own treatment, by whatever name; the staff explain it, and
 * the rule (willing to use contraception) is the same (decision 265). Only a time written with its unit, and an end point
 * of up to five words that ends the criterion (or its sentence): "... after surgery and not donate eggs" says more.
 */
const PERIOD_AFTER_TREATMENT =
  /\b(?:for\s+)?(?:(?:a\s+)?(?:period|minimum)\s+of\s+)?(?:(?:at\s+least|up\s+to|no\s+(?:less|fewer)\s+than|a\s+minimum\s+of)\s+)?(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*\)?\s+(?:days?|weeks?|months?|years?)\s*\)?\s+(?:after|following|post)\s+(?:(?!(?:and|or|nor|not|but|no)\b)[\w-]+\s+){0,4}?(?!(?:and|or|nor|not|but|no)\b)[\w-]+(?=\s*(?:[.;)]|$))/gi;

/**
 * "Women of non-childbearing potential", "not of child-bearing potential": the childbearing potential the pregnancy and
 * contraception rules are about, negated; a woman who cannot become pregnant (past the menopause, surgically sterile).
 * The rule holds its certain part, not pregnant, which those women meet; whether a woman not pregnant today could
 * become pregnant is a person's to check, so always in review (decision 301). Never beside contraception, which its own
 * reading keeps ("non-childbearing potential, or using contraception").
 */
const NO_CHILDBEARING_POTENTIAL = /\b(?:non-?\s?|not\s+(?:of\s+|with\s+)?|without\s+)child[- ]?(?:bearing|producing)\s+potential\b/i;

function readNoChildbearingPotential(kind: CriterionKind, text: string): TextRule | null {
  const potential = NO_CHILDBEARING_POTENTIAL.exec(text);
  if (!potential || kind === 'exclusion' || CONTRACEPTION.test(text)) return null;
  return { rule: { type: 'pregnancy', allowed: false, span: spanOf([potential.index, potential.index + potential[0].length]) }, needsReview: true };
}

/**
 * Words by which an exclusion asks for contraception: those who lack or refuse it are refused ("unwilling to use", "not
 * using", "without", "unless using"), or the words require it where they stand ("must agree to use effective
 * contraception", written among the exclusions).
 */
const LACKS_CONTRACEPTION =
  /\b(?:not|no|non|nor|neither|never|without|unless|except|otherwise|unwilling\w*|unable|refus\w*|declin\w*|fail\w*|inadequate\w*|insufficient\w*|ineffective|lack\w*|cannot|can't|won't|don't|doesn't|absence|other\s+than|must|should|shall|agree\w*|willing|requir\w*|need\w*|counsel\w*|practi[cs]\w*|utili[sz]\w*|commit\w*|effective|adequate|reliable|acceptable|approved|appropriate)\b/i;

/** Pregnancy and breastfeeding (not allowed), or a requirement to use contraception. */
export function readPregnancyRule(kind: CriterionKind, written: string): TextRule | null {
  // The reason a criterion gives ("the effects of X on the developing fetus are unknown") asks nothing (decision 320).
  const text = withoutRationale(written);
  const noPotential = readNoChildbearingPotential(kind, text);
  if (noPotential) return noPotential;
  const pregnancy = PREGNANCY.exec(text);
  let contraception = CONTRACEPTION.exec(text);
  // "Women must be non-pregnant, non-lactating, sterilized or postmenopausal": being sterilised is a reason not to be
  // able to become pregnant, not a method the person is asked to use.
  if (contraception && /^(?:sterili[sz]ed|vasectomy)$/i.test(contraception[0]) && !/\b(?:use|using|agree\w*|practi[sc]\w*|methods?)\b/i.test(text))
    contraception = null;
  // "Use of hormonal contraceptives within 1 month", "current use of an intrauterine device" among the exclusions: the
  // method is what refuses the person, not a requirement to use one; only a refusal or a lack of it ("unwilling to use",
  // "not using", "without", "unless using") is (decision 342). The concept reader reads the method as what it is.
  if (contraception && kind === 'exclusion' && !LACKS_CONTRACEPTION.test(text)) contraception = null;
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
    for (const word of ['practice', 'practise', 'practicing', 'practising', 'utilize', 'utilise']) extra.add(word);
    const said: Span[] = [
      [contraception.index, contraception.index + contraception[0].length],
      ...spansOf(text, [...SAID_BY_THE_RULE, PERIOD_AFTER_TREATMENT]),
      ...methodExamples(text),
    ];
    // "Must use condoms", "other than hormonal methods": a method named outside a list of examples is narrower than any
    // contraception, however few words it takes.
    const namedMethod = leftover(text, said, extra).some((word) => NAMED_METHOD.test(word));
    // "A negative pregnancy test and agree to use contraception": the test, or not breastfeeding, is a second requirement
    // the contraception rule does not hold.
    const pregnancyToo = NOT_PREGNANT_NOW.test(text);
    return reviewed({ type: 'contraception', required: true, span: spanOf(said[0]) }, [
      namedMethod && 'namedMethod',
      // "Who decline to use contraception" in an inclusion: a refusal is an exclusion's wording; which way it counts is a person's.
      kind === 'inclusion' && /\b(?:declin\w*|refus\w*|unwilling\w*|not\s+willing|(?:do|does)\s+not\s+agree)\b/i.test(text) && 'refusal',
      pregnancyToo && 'pregnancyToo',
      ...plainReasons(text, said, 2, extra),
    ]);
  }
  if (!pregnancy) return null;
  const negated = /\b(?:(?:not|no)\s+|non-?\s*)(?:be\s+)?(?:currently\s+)?(?:pregnan|breast|lactat|nursing)/i.test(text) || /\bnegative\b/i.test(text);
  if (kind === 'inclusion' && !negated) return null;
  const span: Span = [pregnancy.index, pregnancy.index + pregnancy[0].length];
  const extra = new Set([...PREGNANCY_WORDS, 'breast', 'feeding']);
  const said = [
    ...spansOf(text, SAID_BY_THE_RULE),
    ...spansOf(text, [NURSING_A_CHILD, NON_PREFIX]),
    ...(kind === 'exclusion' ? spansOf(text, [NOT_TAKING_PART]) : []),
    ...(PREGNANCY_TEST.test(text) ? spansOf(text, TEST_AS_THE_SITE_RUNS_IT) : []),
  ];
  // "Pregnant within the past 6 months", "history of pregnancy loss": a past pregnancy is not today's, which the rule is.
  const past = PAST_PREGNANCY.test(said.reduce((rest, [start, end]) => rest.slice(0, start) + ' '.repeat(end - start) + rest.slice(end), text));
  return reviewed({ type: 'pregnancy', allowed: false, span: spanOf(span) }, [
    past && 'pastPregnancy',
    POTENTIAL_AS_AN_ITEM.test(text) && 'potentialAsAnItem',
    ...plainReasons(text, [span, ...said], 0, extra),
  ]);
}

const SEX_WORDS = /^(?:males?|females?|men|women|man|woman|boys?|girls?|genders?|sex(?:es)?)$/;

const SEX_LINK_WORDS = new Set(
  'both any all either and or & of are is be can may patients participants subjects volunteers people persons individuals eligible included inclusion accepted welcome only'.split(
    ' ',
  ),
);

/** "Male or female", "Any gender", "Both sexes", "Women": a criterion that says nothing but who may take part by sex. */
export function readSexRule(kind: CriterionKind, text: string): TextRule | null {
  // "Female sex", "Male patients" among the exclusions: the other sex is who may take part (decision 327); a heading
  // ("Women:") leads its own items, and "male or female" excluded says nothing.
  if (kind === 'exclusion') {
    if (/:\s*$/.test(text)) return null;
    const read = readSexRule('inclusion', text);
    if (read?.rule?.type !== 'sex' || read.rule.sex === 'all') return null;
    return { ...read, rule: { ...read.rule, sex: read.rule.sex === 'female' ? 'male' : 'female' } };
  }
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
  // "Female sex", "sex: male", "female gender": the word of sex names which one (decision 278); "any gender" names none.
  const sex = female === male ? 'all' : female ? 'female' : 'male';
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
