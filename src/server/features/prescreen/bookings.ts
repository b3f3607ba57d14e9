/** The time-zone helpers moved to src/contract/time-zones.ts (the web uses them too). */
export * from '../../../contract/time-zones';
