#!/usr/bin/env node
/**
 * Codemod: every cloud module (cloud/src/modules/<name>) is imported by the rest of the cloud only
 * through its public `index.ts`.
 *
 * - Rewrites imports of another module's files (`../sales/fulfilment`, `../../modules/identity/tokens`)
 *   into imports of that module's `index.js`, merging imports of the same index in one file.
 * - Regenerates each module's `index.ts` from what the rest of the cloud imports of it: one
 *   `export { … } from './file'` (values) or `export type { … }` (types only) per file. A name nobody
 *   outside imports any more disappears from the index; a module nobody imports gets an empty one.
 *
 * Re-runnable: run it after merging branches or adding a cross-module import, then `npm run lint`.
 * Test files (`*.test.ts`, `*.test-support.ts`, `testing/`) are left alone: tests may reach inside a
 * module. A module's own files never import its index (they import each other directly).
 *
 * Usage: node tools/module-imports.mjs [--check]   (--check: change nothing, exit 1 if anything would)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLOUD = path.join(ROOT, 'cloud/src');
const MODULES = path.join(CLOUD, 'modules');
/** What consumers write after `../<module>/`. */
const INDEX_SPECIFIER = 'index';
const check = process.argv.includes('--check');

/** Tests and their support (the two helpers named as sources are test support, importing vitest). */
const isTest = (file) =>
  /\.test\.tsx?$|\.test-support\.ts$|\/testing\/|\/sales\/sales-support\.ts$|\/bookings\/bookings-fixtures\.ts$|-fixtures\.ts$/.test(
    file,
  );
const rel = (file) => path.relative(ROOT, file);

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'generated' || entry.name === 'node_modules' ? [] : walk(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const moduleNames = fs
  .readdirSync(MODULES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const indexFile = (mod) => path.join(MODULES, mod, 'index.ts');

/** The module a file belongs to, or null (app.ts, http/, jobs/, sync/, db/…). */
function moduleOf(file) {
  const r = path.relative(MODULES, file);
  if (r.startsWith('..')) return null;
  const name = r.split(path.sep)[0];
  return moduleNames.includes(name) && r.includes(path.sep) ? name : null;
}

/** A relative specifier resolved to a file on disk (extensionless, `.js` for `.ts`, or a folder's index). */
function resolveSpecifier(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.js$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, path.join(base, 'index.ts')])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return null;
}

function specifierFor(fromFile, mod) {
  let r = path
    .relative(path.dirname(fromFile), path.join(MODULES, mod, INDEX_SPECIFIER))
    .split(path.sep)
    .join('/');
  if (!r.startsWith('.')) r = `./${r}`;
  return r;
}

// ------------------------------------------------------------------------------ what is imported

const allFiles = walk(CLOUD);
const consumers = allFiles.filter((f) => !isTest(f));
/** module → name → Set of files of that module it was imported from ('index' when through the index). */
const wanted = new Map(moduleNames.map((m) => [m, new Map()]));
/** file → list of edits { start, end, text } */
const rewrites = new Map();
const problems = [];

function want(mod, name, sourceFile) {
  const names = wanted.get(mod);
  if (!names.has(name)) names.set(name, new Set());
  names.get(name).add(sourceFile);
}

for (const file of consumers) {
  const own = moduleOf(file);
  const text = fs.readFileSync(file, 'utf8');
  if (!/modules\/|\.\.\//.test(text)) continue;
  const sf = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const edits = [];
  const target = (specifier) => {
    const resolved = resolveSpecifier(file, specifier);
    if (!resolved) return null;
    const mod = moduleOf(resolved);
    if (!mod || mod === own) return null;
    return { mod, resolved, viaIndex: resolved === indexFile(mod) };
  };
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const t = target(node.moduleSpecifier.text);
      if (t) {
        const from = t.viaIndex ? 'index' : t.resolved;
        const clause = ts.isImportDeclaration(node) ? node.importClause : null;
        if (ts.isImportDeclaration(node) && !clause)
          problems.push(`${rel(file)}: side-effect import of ${node.moduleSpecifier.text}`);
        else if (clause?.name)
          problems.push(`${rel(file)}: default import from ${node.moduleSpecifier.text}`);
        const bindings = ts.isImportDeclaration(node) ? clause?.namedBindings : node.exportClause;
        if (bindings && (ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)))
          problems.push(`${rel(file)}: namespace import of ${node.moduleSpecifier.text}`);
        else if (!bindings && ts.isExportDeclaration(node))
          problems.push(`${rel(file)}: export * from ${node.moduleSpecifier.text}`);
        else for (const el of bindings?.elements ?? []) want(t.mod, (el.propertyName ?? el.name).text, from);
        const spec = specifierFor(file, t.mod);
        if (node.moduleSpecifier.text !== spec)
          edits.push({
            start: node.moduleSpecifier.getStart(sf) + 1,
            end: node.moduleSpecifier.getEnd() - 1,
            text: spec,
          });
      }
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      // `const { A, B } = await import('../identity/x')`
      const t = target(node.arguments[0].text);
      if (t) {
        let decl = node.parent;
        if (decl && ts.isAwaitExpression(decl)) decl = decl.parent;
        if (decl && ts.isVariableDeclaration(decl) && ts.isObjectBindingPattern(decl.name)) {
          for (const el of decl.name.elements)
            want(
              t.mod,
              (el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName : el.name).text,
              t.viaIndex ? 'index' : t.resolved,
            );
          const spec = specifierFor(file, t.mod);
          const arg = node.arguments[0];
          if (arg.text !== spec)
            edits.push({ start: arg.getStart(sf) + 1, end: arg.getEnd() - 1, text: spec });
        } else problems.push(`${rel(file)}: dynamic import of ${arg0(node)} whose names cannot be read`);
      }
    }
    ts.forEachChild(node, visit);
  };
  const arg0 = (node) => node.arguments[0].text;
  visit(sf);
  if (edits.length > 0) rewrites.set(file, edits);
}

// ------------------------------------------------------------------------------ which file exports what

const program = ts.createProgram(
  moduleNames.flatMap((m) => walk(path.join(MODULES, m)).filter((f) => !isTest(f) && f !== indexFile(m))),
  {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowJs: false,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
);
const checker = program.getTypeChecker();
const exportCache = new Map();
/** name → { value: boolean, local: boolean } for what a file exports. */
function exportsOf(file) {
  if (exportCache.has(file)) return exportCache.get(file);
  const result = new Map();
  const sf = program.getSourceFile(file);
  const symbol = sf && checker.getSymbolAtLocation(sf);
  for (const exp of symbol ? checker.getExportsOfModule(symbol) : []) {
    const target = exp.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exp) : exp;
    const local = !(exp.flags & ts.SymbolFlags.Alias);
    result.set(exp.name, { value: Boolean(target.flags & ts.SymbolFlags.Value), local });
  }
  exportCache.set(file, result);
  return result;
}

/** The `from` of each name in the module's current index.ts, so a re-run keeps an ambiguous name where it was. */
function previousIndex(mod) {
  const file = indexFile(mod);
  const map = new Map();
  if (!fs.existsSync(file)) return map;
  const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  for (const st of sf.statements)
    if (
      ts.isExportDeclaration(st) &&
      st.moduleSpecifier &&
      st.exportClause &&
      ts.isNamedExports(st.exportClause)
    ) {
      const resolved = resolveSpecifier(file, st.moduleSpecifier.text);
      for (const el of st.exportClause.elements) if (resolved) map.set(el.name.text, resolved);
    }
  return map;
}

const indexes = new Map();
for (const mod of moduleNames) {
  const files = walk(path.join(MODULES, mod)).filter((f) => !isTest(f) && f !== indexFile(mod));
  const before = previousIndex(mod);
  /** file → { values: [], types: [] } */
  const byFile = new Map();
  for (const [name, sources] of [...wanted.get(mod)].sort(([a], [b]) => a.localeCompare(b))) {
    const direct = [...sources].filter((s) => s !== 'index');
    let source = null;
    if (new Set(direct).size > 1) {
      problems.push(
        `${mod}: "${name}" is imported from ${direct.map(rel).join(' and ')}; one index cannot export both`,
      );
      continue;
    } else if (direct.length === 1) source = direct[0];
    else if (before.has(name) && fs.existsSync(before.get(name))) source = before.get(name);
    else {
      const declaring = files.filter((f) => exportsOf(f).get(name)?.local);
      const any = declaring.length > 0 ? declaring : files.filter((f) => exportsOf(f).has(name));
      if (any.length !== 1) {
        problems.push(
          `${mod}: "${name}" is imported through the index but ${any.length === 0 ? 'no file of the module exports it' : `several files export it (${any.map(rel).join(', ')})`}`,
        );
        continue;
      }
      source = any[0];
    }
    const info = exportsOf(source).get(name);
    if (!info) {
      problems.push(`${mod}: ${rel(source)} does not export "${name}"`);
      continue;
    }
    if (!byFile.has(source)) byFile.set(source, { values: [], types: [] });
    byFile.get(source)[info.value ? 'values' : 'types'].push(name);
  }
  const lines = [
    '/**',
    ` * The public surface of the ${mod} module: the rest of the cloud imports only this file`,
    ' * (.dependency-cruiser.cjs enforces it). Generated by `node tools/module-imports.mjs` from what',
    ' * is imported: re-run it after adding or removing such an import, do not edit by hand.',
    ' */',
  ];
  const entries = [...byFile].sort(([a], [b]) => a.localeCompare(b));
  for (const [file, { values, types }] of entries) {
    let spec = path
      .relative(path.join(MODULES, mod), file)
      .split(path.sep)
      .join('/')
      .replace(/\.tsx?$/, '');
    spec = `./${spec}`;
    if (values.length > 0) lines.push(`export { ${values.join(', ')} } from '${spec}';`);
    if (types.length > 0) lines.push(`export type { ${types.join(', ')} } from '${spec}';`);
  }
  if (entries.length === 0) lines.push('export {};');
  indexes.set(mod, `${lines.join('\n')}\n`);
}

if (problems.length > 0) {
  console.error(`module-imports: cannot proceed:\n  ${problems.join('\n  ')}`);
  process.exit(2);
}

// ------------------------------------------------------------------------------ write

/** Merges several imports of one index into one declaration (`type` kept per name). */
function mergeImports(text, file) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const groups = new Map();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    if (!/\/index\.js$/.test(st.moduleSpecifier.text)) continue;
    const clause = st.importClause;
    if (!clause || clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) continue;
    if (!groups.has(st.moduleSpecifier.text)) groups.set(st.moduleSpecifier.text, []);
    groups.get(st.moduleSpecifier.text).push(st);
  }
  const edits = [];
  for (const [spec, decls] of groups) {
    if (decls.length < 2) continue;
    const allType = decls.every((d) => d.importClause.isTypeOnly);
    const names = decls.flatMap((d) =>
      d.importClause.namedBindings.elements.map((el) => {
        const typed = !allType && (d.importClause.isTypeOnly || el.isTypeOnly);
        const body = el.propertyName ? `${el.propertyName.text} as ${el.name.text}` : el.name.text;
        return `${typed ? 'type ' : ''}${body}`;
      }),
    );
    const unique = [...new Set(names)];
    edits.push({
      start: decls[0].getStart(sf),
      end: decls[0].getEnd(),
      text: `import ${allType ? 'type ' : ''}{ ${unique.join(', ')} } from '${spec}';`,
    });
    for (const d of decls.slice(1)) {
      let end = d.getEnd();
      if (text[end] === '\n') end += 1;
      edits.push({ start: d.getStart(sf), end, text: '' });
    }
  }
  return applyEdits(text, edits);
}

function applyEdits(text, edits) {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

async function formatted(file, text) {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...options, filepath: file });
}

const changed = [];
async function put(file, text) {
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  const after = await formatted(file, text);
  if (after === before) return;
  changed.push(file);
  if (!check) fs.writeFileSync(file, after);
}
for (const [file, edits] of rewrites) {
  const before = fs.readFileSync(file, 'utf8');
  const after = mergeImports(applyEdits(before, edits), file);
  if (after !== before) await put(file, after);
}
for (const [mod, text] of indexes) await put(indexFile(mod), text);

if (check) {
  if (changed.length > 0) {
    console.error(
      `module-imports: ${changed.length} file(s) would change:\n  ${changed.map(rel).join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log('module-imports: every cross-module import goes through an index.ts');
} else {
  console.log(`module-imports: ${changed.length} file(s) changed`);
  for (const f of changed) console.log(`  ${rel(f)}`);
}
