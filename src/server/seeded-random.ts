/**
 * mulberry32: a small, fast, seeded generator of uniforms in (0, 1). Everything that must be "random" yet the same
 * on every run (demo data, forecast simulations, bench data, property tests) draws from it.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const value = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    // Never exactly 0, so log(random()) and 1 / random() stay finite.
    return value === 0 ? 1 / 8589934592 : value;
  };
}
