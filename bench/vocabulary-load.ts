/**
 * Loading the clinical vocabulary (issue 30, decision 126): `npm run bench:vocabulary-load`. Each run is a fresh
 * process that reads mesh-2024.json.gz and builds the recognizer (the lexicon and the hand entries), reads
 * analytes-2024.json.gz (decision 304, read at start by main.ts too), then reads one sentence; prints wall time, CPU
 * time and the heap it holds after a full collection. Goal: under 1 s and 150 MB.
 */
import { execFileSync } from 'node:child_process';

if (process.argv[2] === '--child') {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const { findAnalytes, vocabulary } = await import('../src/server/features/trials/vocabulary');
  const importedAt = performance.now();
  vocabulary().find('Type 2 diabetes on Lipitor', { reach: 'full' });
  findAnalytes('PSA 4.2 ng/mL');
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  (globalThis as { gc?: () => void }).gc?.();
  const heap = process.memoryUsage().heapUsed / 1e6;
  console.log(JSON.stringify({ wall, cpu: (used.user + used.system) / 1000, imported: importedAt - started, heap }));
} else {
  const runs = Number(process.argv[2] ?? 5);
  const results: Array<{ wall: number; cpu: number; imported: number; heap: number }> = [];
  // A baseline: the same process shape with nothing loaded, so the figures are the vocabulary's own.
  for (let run = 0; run < runs; run++) {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, '--child'], { encoding: 'utf8' });
    results.push(JSON.parse(out.trim().split('\n').at(-1)!));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const figure = (key: 'wall' | 'cpu' | 'heap' | 'imported') => median(results.map((result) => result[key])).toFixed(0);
  console.log(
    `vocabulary load (median of ${runs} fresh processes): wall ${figure('wall')} ms (module import ${figure('imported')} ms), CPU ${figure('cpu')} ms, heap after GC ${figure('heap')} MB`,
  );
}
