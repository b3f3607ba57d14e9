/**
 * A small deterministic generator for property-style tests: the same seed gives the same sequence on every run
 * and engine, so a failure can be replayed.
 */
export function seededRandom(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)], chance: (p: number) => next() < p };
}
