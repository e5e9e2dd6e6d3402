// Figures of issue 18 (typed data access), repeatable: `node tests/bench/typing-figures.mjs`.
// - `as` casts on query results: in cloud/ (non-test) .ts, a parenthesised `(await …)` followed by
//   `as T` (not `as const`/`as unknown`), plus `as XRow`/`as XRow[]` anywhere (a row type named on a value).
// - hand-written row types: `interface XRow` / `type XRow =` in cloud/, shared/, desktop/ (non-test);
//   a `type XRow = Pick<…>`/`Omit<…>` of a generated row is not hand-written.
// - files over 800 lines: non-test, non-generated .ts/.tsx under cloud/, shared/, web/, desktop/.
// - module import cycles between cloud/src/modules/*: give it madge's file graph and it collapses the
//   files into modules, then prints the pairs that import each other and the cycles (strongly connected
//   groups): `npx -y madge@8 --json --extensions ts --ts-config tsconfig.json cloud/src > /tmp/graph.json`
//   then `node tests/bench/typing-figures.mjs /tmp/graph.json`.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const walk = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'generated' ? [] : walk(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
const isTest = (f) => /\.(test|int\.test|e2e)\.tsx?$/.test(f);
const files = (dirs) => dirs.flatMap((d) => walk(path.join(root, d))).filter((f) => !isTest(f));

let casts = 0;
for (const f of files(['cloud'])) {
  const text = fs.readFileSync(f, 'utf8');
  const seen = new Set();
  // `(await …) as T`: find each `(await`, match its closing parenthesis, look at what follows.
  for (let i = text.indexOf('(await'); i >= 0; i = text.indexOf('(await', i + 1)) {
    let depth = 0;
    let j = i;
    for (; j < text.length; j++) {
      if (text[j] === '(') depth++;
      else if (text[j] === ')' && --depth === 0) break;
    }
    const after = /^\)\s*as\s+(\w+)/.exec(text.slice(j, j + 200));
    if (after && after[1] !== 'const' && after[1] !== 'unknown') {
      casts++;
      seen.add(j);
    }
  }
  for (const m of text.matchAll(/\)\s*as\s+\w*Row\b/g)) if (!seen.has(m.index)) casts++;
}

const rowTypes = files(['cloud', 'shared', 'desktop'])
  .map(
    (f) =>
      fs
        .readFileSync(f, 'utf8')
        .match(/^\s*(export\s+)?(interface\s+\w*Row\b|type\s+\w*Row\s*=(?!\s*(Pick|Omit)<))/gm)?.length ?? 0,
  )
  .reduce((a, b) => a + b, 0);

const big = files(['cloud', 'shared', 'web', 'desktop'])
  .map((f) => [path.relative(root, f), fs.readFileSync(f, 'utf8').split('\n').length - 1])
  .filter(([, n]) => n > 800);

console.log(`as casts on query results = ${casts}`);
console.log(`hand-written row types = ${rowTypes}`);
console.log(
  `files over 800 lines = ${big.length}${big.length ? ': ' + big.map(([f, n]) => `${f} ${n}`).join(', ') : ''}`,
);

if (process.argv[2]) {
  const graph = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const mod = (f) => /modules\/([^/]+)\//.exec(f)?.[1];
  const edges = new Map();
  for (const [file, deps] of Object.entries(graph)) {
    const a = mod(file);
    if (!a) continue;
    for (const d of deps) {
      const b = mod(d);
      if (b && b !== a) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
  }
  const pairs = [...edges]
    .flatMap(([a, bs]) => [...bs].filter((b) => a < b && edges.get(b)?.has(a)).map((b) => `${a}<->${b}`))
    .sort();
  // Tarjan: groups of modules that reach each other.
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    stack = [],
    on = new Set(),
    groups = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort().join(','));
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  console.log(`module pairs importing each other = ${pairs.length}: ${pairs.join(', ')}`);
  console.log(`module cycles (groups) = ${groups.length}: ${groups.sort().join(' | ')}`);
}
