import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The layers of docs/ARCHITECTURE.md, checked on the import graph of src/ (every import, export-from,
// type-only and dynamic import, read with the TypeScript compiler's own pre-processor):
//   - the web and the contract never import the server;
//   - lower server layers (auth, db, http, integrations, tenancy) never import a feature;
//   - feature folders import each other without cycles, and never another feature's queries.ts (its SQL):
//     they call the other feature's service instead, or one of its modules named in PUBLIC_MODULES.
// A feature's service.ts says what other features may use of it, re-exporting the few reads and writes of its
// queries.ts they need; queries.ts stays the feature's own.

const ROOT = join(__dirname, '..', '..');

/** Below every feature: the layers' folders and the shared modules beside app.ts (wiring.ts, app.ts, main.ts, bootstrap.ts and deps.ts sit above, composing the features). */
const LOWER = /^src\/server\/((auth|db|http|integrations|tenancy|forecast)\/|(audit|activity|calling-hours|funnel-signals|logger|config|seeded-random)\.ts$)/;

function sourceFiles(): string[] {
  return readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/** The repository file a relative import names (package imports and assets are not part of the graph). */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(ROOT, dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return relative(ROOT, candidate).split('\\').join('/');
  }
  return undefined;
}

function importGraph(): Array<[string, string]> {
  return sourceFiles().flatMap((file) =>
    ts
      .preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true)
      .importedFiles.map((imported) => resolveImport(file, imported.fileName))
      .filter((target): target is string => Boolean(target))
      .map((target): [string, string] => [file, target]),
  );
}

/**
 * Besides its service.ts, the modules of a feature that other features may import, and why: an engine or a pure
 * rule used in several places, or a second service of a feature with two surfaces. Anything else of a feature is
 * its own; a new entry here is a decision about that feature's surface.
 */
const PUBLIC_MODULES: Record<string, string> = {
  'src/server/features/callbacks/tools.ts': "the agent's callback tools, which the calls feature's tool requests run (callbacks sit below calls)",
  'src/server/features/chat/agent-service.ts': "the chat agents' service (chat's second surface, beside the conversations)",
  'src/server/features/chat/dialogue.ts': "pure: the chat's dialogue, whose closing message the demo seed's chats end with (decision 200)",
  'src/server/features/chat/understand.ts': 'pure: reading a free answer, for the voice answers as for the chat',
  'src/server/features/matching/facts.ts': "a candidate's clinical facts, written from prescreen answers",
  'src/server/features/matching/matcher.ts': "the matcher's surface (the feature has no service.ts): the dashboard's match numbers",
  'src/server/features/organizations/sites.ts': "the organization's own sites, which onboarding sets up",
  'src/server/features/prescreen-forms/generator.ts': 'pure: prescreen questions generated from criteria (matcher gaps, demo seed)',
  'src/server/features/prescreen/bookings.ts': 'screening visits, which scheduling calls book',
  'src/server/features/prescreen/engine.ts': 'pure: the recommendation engine (demo seed)',
  'src/server/features/processing-runs/runner.ts': 'the run engine every run kind is defined on',
  'src/server/features/sms/consent.ts': 'contactPermission, which every SMS and call asks',
  'src/server/features/sms/templates.ts': "an SMS template's rendering, for sequences' messages",
  'src/server/features/trials/criteria/index.ts': 'pure: the criteria reader, also reading notes, FHIR and import columns into facts',
  'src/server/features/trials/sites.ts': "a trial's sites (calls, prescreen, voice agents, onboarding, sequences)",
  'src/server/features/trials/vocabulary/index.ts': 'data: the concept vocabulary (MeSH terms, synonyms), for notes, import columns and Spanish names',
  'src/server/features/trials/vocabulary/lexicon.ts': "data: MeSH 2024's headings and trees, for what kind of heading a fact's concept is (an operation)",
  'src/server/features/trials/vocabulary/synonyms.ts': "data: the vocabulary's synonyms, for import columns",
};

const featureOf = (file: string) => /^src\/server\/features\/([^/]+)\//.exec(file)?.[1];
const unique = (items: string[]) => [...new Set(items)].sort();

/** Tarjan's strongly connected components of a graph given as adjacency sets. */
function stronglyConnected(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      groups.push(group);
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

describe('architecture: the import graph keeps its layers', () => {
  const edges = importGraph();

  it('reads the graph (a sanity check: the app imports its features)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual(['src/server/app.ts', 'src/server/features/calls/webhook.ts']);
  });

  it('keeps the web and the contract from importing the server', () => {
    const leaks = edges.filter(([from, to]) => (from.startsWith('src/web/') || from.startsWith('src/contract/')) && to.startsWith('src/server/'));
    expect(leaks).toEqual([]);
  });

  it('keeps the contract from importing the web', () => {
    expect(edges.filter(([from, to]) => from.startsWith('src/contract/') && to.startsWith('src/web/'))).toEqual([]);
  });

  it('keeps lower server layers (auth, db, http, integrations, tenancy, and the shared modules beside app.ts) from importing features', () => {
    const lower = unique(edges.filter(([from, to]) => LOWER.test(from) && featureOf(to)).map(([from, to]) => `${from} -> ${featureOf(to)}`));
    expect(lower).toEqual([]);
  });

  it('has no import cycle between feature folders (a reaction goes through funnel-signals.ts, not an import back)', () => {
    const graph = new Map<string, Set<string>>();
    for (const [from, to] of edges) {
      const a = featureOf(from);
      const b = featureOf(to);
      if (!a || !b || a === b) continue;
      if (!graph.has(a)) graph.set(a, new Set());
      graph.get(a)!.add(b);
    }
    const groupOf = new Map<string, number>();
    for (const [i, group] of stronglyConnected(graph).entries()) for (const feature of group) groupOf.set(feature, i);
    const cyclic = [...graph].flatMap(([a, targets]) => [...targets].filter((b) => groupOf.get(a) === groupOf.get(b)).map((b) => `${a} -> ${b}`));
    expect(unique(cyclic)).toEqual([]);
  });

  it('has no feature importing another feature’s queries.ts', () => {
    const foreign = edges.filter(([from, to]) => featureOf(from) && featureOf(to) && featureOf(from) !== featureOf(to) && /\/queries\.ts$/.test(to));
    expect(unique(foreign.map(([from, to]) => `${from} -> ${to}`))).toEqual([]);
  });

  it('has features use another feature only through its service.ts or a module named in PUBLIC_MODULES', () => {
    const reached = unique(
      edges.filter(([from, to]) => featureOf(from) && featureOf(to) && featureOf(from) !== featureOf(to) && !/\/service\.ts$/.test(to)).map(([, to]) => to),
    );
    expect(reached).toEqual(Object.keys(PUBLIC_MODULES).sort());
  });

  it('has no import cycle between files of the server (calls/tools.ts and calls/webhook.ts no longer import each other)', () => {
    const graph = new Map<string, Set<string>>();
    for (const [from, to] of edges) {
      if (!from.startsWith('src/server/') || !to.startsWith('src/server/')) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
    const cycles = stronglyConnected(graph)
      .filter((group) => group.length > 1)
      .map((group) => group.sort().join(' <-> '));
    // auth/scope.ts and http/context.ts name each other's types only (type-only imports, nothing runs).
    expect(cycles).toEqual(['src/server/auth/scope.ts <-> src/server/http/context.ts']);
  });
});

describe('architecture: one engine owns the processing runs (issue 16, point 2)', () => {
  // A kind supplies its items (the `addItems` hook, or an import's stored rows) and "process this batch"; creating,
  // starting, settling, failing, resuming and forgetting runs and their items is runner.ts's.
  const RUN_TABLE_WRITE =
    /\.(update|delete|insert)\(\s*(processingRun|processingRunItem)\s*\)|\b(update|delete\s+from)\s+"?processing_run(_item)?\b|\binsert\s+into\s+"?processing_run\b(?!_item)/i;

  it('has no feature outside processing-runs/ update or delete a run or its items, or insert a run', () => {
    const writers = sourceFiles()
      .filter((file) => file.startsWith('src/server/features/') && !file.startsWith('src/server/features/processing-runs/'))
      .filter((file) => RUN_TABLE_WRITE.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(writers).toEqual([]);
  });

  it('recognizes such a write (the check can fail)', () => {
    expect(RUN_TABLE_WRITE.test('await tx.update(processingRun).set({ options })')).toBe(true);
    expect(RUN_TABLE_WRITE.test('await executor.update(processingRunItem).set({ input: null })')).toBe(true);
    expect(RUN_TABLE_WRITE.test('delete from processing_run_item where run_id = $1')).toBe(true);
    expect(RUN_TABLE_WRITE.test('insert into processing_run_item (organization_id, run_id)')).toBe(false);
  });
});
