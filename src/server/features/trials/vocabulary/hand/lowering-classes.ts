/**
 * Classes of medicines named by what they lower: "glucose-lowering medication", "lipid-lowering therapy",
 * "cholesterol-lowering drugs" (decision 371). Trial language that MeSH 2024 does not list among the entry terms of the
 * class's heading; read as that heading, whose members are the medicines with its pharmacological action (metformin is a
 * hypoglycemic agent, atorvastatin an anticholesteremic one). Each target names exactly one heading. Not "urate-lowering
 * therapy": MeSH's nearest heading (Gout Suppressants) also holds colchicine, which lowers no urate. Blood pressure's
 * lowering medicines are the hand entry `antihypertensives` (hand/medicines.ts).
 */
export interface LoweringClass {
  /** What the medicines lower, as criteria write it before "-lowering". */
  targets: readonly string[];
  /** The MeSH 2024 heading's name, as MeSH writes it. */
  heading: string;
  why: string;
}

export const LOWERING_CLASSES: readonly LoweringClass[] = [
  {
    targets: ['glucose', 'blood glucose', 'blood sugar', 'sugar'],
    heading: 'Hypoglycemic Agents',
    why: 'every diabetes medicine that lowers blood glucose: metformin, sulfonylureas, insulin, GLP-1 and SGLT2 medicines',
  },
  {
    targets: ['lipid', 'lipids'],
    heading: 'Hypolipidemic Agents',
    why: 'statins, ezetimibe, fibrates and PCSK9 medicines alike; "lipid-lowering therapy" is more than a statin',
  },
  {
    targets: ['cholesterol', 'ldl', 'ldl-c', 'ldl cholesterol'],
    heading: 'Anticholesteremic Agents',
    why: 'the medicines that lower cholesterol (statins, ezetimibe), a heading under the hypolipidemic agents',
  },
];

/** The nouns a lowering class is written with: "glucose-lowering medication", "lipid-lowering agents". */
export const LOWERING_NOUNS = ['medication', 'medicine', 'drug', 'agent', 'therapy', 'treatment'] as const;

/** Every phrase of a class: "glucose lowering medication", "glucose lowering medications", ... */
export const loweringPhrases = ({ targets }: LoweringClass): string[] =>
  targets.flatMap((target) =>
    LOWERING_NOUNS.flatMap((noun) => [`${target} lowering ${noun}`, `${target} lowering ${noun === 'therapy' ? 'therapies' : `${noun}s`}`]),
  );
