import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

// The floors of server/src, lowest first (docs/architecture.md): a module imports only from its own floor's unit or a
// floor below, type-only imports included. Units on one floor (features and compile) do not import each other.
const FLOORS: string[][] = [
  ['listMap.ts', 'protocol'],
  ['platforms'],
  ['parse'],
  ['model'],
  ['workspace'],
  ['checks'],
  ['config'],
  ['library'],
  ['incremental'],
  ['analysis'],
  ['document', 'forms'],
  ['formats'],
  ['rules'],
  ['analyze.ts'],
  ['fixes'],
  ['features', 'compile'],
  ['diff'],
  ['service'],
  ['server.ts', 'cli'],
];

const ROOT = path.join(__dirname, '..', '..');
const SOURCE = path.join(ROOT, 'server', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface Import {
  from: string;
  to: string;
}

/** Every relative import of every module under `dir` that names a TypeScript module, resolved to its file. */
function importsUnder(dir: string): Import[] {
  return sourceFiles(dir).flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((spec) => spec.startsWith('.'))
      .flatMap((spec) => {
        const target = path.resolve(path.dirname(file), spec);
        const resolved = [`${target}.ts`, path.join(target, 'index.ts'), target].find(
          (candidate) => candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile(),
        );
        return resolved ? [{ from: file, to: resolved }] : [];
      }),
  );
}

/** The unit of a module of server/src: its top folder, or the file itself at the top. */
function unitOf(file: string): string {
  return path.relative(SOURCE, file).split(path.sep)[0];
}

const floorOf = (unit: string) => FLOORS.findIndex((floor) => floor.includes(unit));
const shown = (file: string) => path.relative(ROOT, file);
const imports = importsUnder(SOURCE);

test('every module of server/src belongs to a floor', () => {
  const unplaced = [...new Set(sourceFiles(SOURCE).map(unitOf))].filter((unit) => floorOf(unit) === -1);
  assert.deepEqual(unplaced, []);
});

test('a module imports only from its own unit or a floor below it', () => {
  const wrong = imports
    .filter(({ from, to }) => {
      const [a, b] = [unitOf(from), unitOf(to)];
      return a !== b && floorOf(b) >= floorOf(a);
    })
    .map(({ from, to }) => `${shown(from)} → ${shown(to)}`);
  assert.deepEqual(wrong, []);
});

test('no two folders import each other, directly or round a cycle', () => {
  // Every folder is a node (a folder and its subfolders are separate nodes); a top-level file is a node of its own.
  const nodeOf = (file: string) => (path.dirname(file) === SOURCE ? file : path.dirname(file));
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const [a, b] = [nodeOf(from), nodeOf(to)];
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
  }
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (node: string, trail: string[]) => {
    state.set(node, 'visiting');
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'visiting')
        cycles.push([...trail.slice(trail.indexOf(next)), node, next].map(shown).join(' → '));
      else if (!state.has(next)) visit(next, [...trail, node]);
    }
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node, []);
  assert.deepEqual(cycles, []);
});

test('outside a format, only its front door (index.ts) is imported, but by the rule catalog', () => {
  const formats = path.join(SOURCE, 'formats');
  const formatOf = (file: string) => {
    const relative = path.relative(formats, file).split(path.sep);
    return relative.length > 1 && !relative[0].startsWith('..') ? relative[0] : undefined;
  };
  // The catalog is generated from every rule's declaration, where it is (scripts/ruleCatalog.ts); it reads rules only.
  const catalog = path.join(SOURCE, 'rules', 'catalog.generated.ts');
  const wrong = imports
    .filter(({ from, to }) => {
      const format = formatOf(to);
      return format !== undefined && formatOf(from) !== format && path.basename(to) !== 'index.ts' && from !== catalog;
    })
    .map(({ from, to }) => `${shown(from)} → ${shown(to)}`);
  assert.deepEqual(wrong, []);
});

test('the VS Code client reaches the server only through the protocol module', () => {
  const wrong = [
    ...importsUnder(path.join(ROOT, 'client', 'src')),
    ...importsUnder(path.join(ROOT, 'client', 'webview')),
  ]
    .filter(({ to }) => to.startsWith(SOURCE + path.sep) && unitOf(to) !== 'protocol')
    .map(({ from, to }) => `${shown(from)} → ${shown(to)}`);
  assert.deepEqual(wrong, []);
});

test('no source file is over 400 lines', () => {
  const long = [...sourceFiles(SOURCE), ...sourceFiles(path.join(ROOT, 'client'))]
    .map((file) => ({ file: shown(file), lines: readFileSync(file, 'utf8').split('\n').length }))
    .filter((entry) => entry.lines > 400);
  assert.deepEqual(long, []);
});

/**
 * The files outside `formats/` allowed to name a format's id in code, and why: the vocabulary itself. Everything else
 * asks the skill's format (formats/index.ts), and a rule says which formats it checks in its declaration.
 */
const FORMAT_VOCABULARY = ['server/src/model/skillModel.ts'];

test('outside formats/, no code names a format: it asks the skill’s format instead', () => {
  const ids = new Set(['agent-skill', 'aip-0.3', 'aip-0.5', 'metaskill', 'metaskill-sop', 'skillplus']);
  const formats = path.join(SOURCE, 'formats') + path.sep;
  const inRuleFormats = (node: ts.Node) => {
    for (let at: ts.Node | undefined = node; at; at = at.parent)
      if (ts.isPropertyAssignment(at) && at.name.getText() === 'formats') {
        const call = at.parent.parent;
        return ts.isCallExpression(call) && call.expression.getText() === 'defineRule';
      }
    return false;
  };
  const naming = [...sourceFiles(SOURCE), ...sourceFiles(path.join(ROOT, 'client'))].filter((file) => {
    if (file.startsWith(formats)) return false;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    let found = false;
    const visit = (node: ts.Node) => {
      if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
        ids.has(node.text) &&
        !ts.isLiteralTypeNode(node.parent) &&
        !ts.isImportDeclaration(node.parent) &&
        !inRuleFormats(node)
      )
        found = true;
      // A format's own part of the analysis read without asking the format: `'procedure' in analysis`.
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.InKeyword &&
        ['procedure', 'metaPlan', 'skillplus'].includes((node.left as ts.StringLiteral).text)
      )
        found = true;
      if (!found) ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  });
  assert.deepEqual(naming.map(shown), FORMAT_VOCABULARY);
  assert.ok(FORMAT_VOCABULARY.length <= 3);
});

test('what clients and shells are is written in platforms/ alone: client folders, session and shell labels', () => {
  const words = new Set([
    '.claude',
    '.agents',
    '.codex',
    '.github',
    '.cursor',
    '.claude-plugin',
    'console',
    'shell-session',
    'sh-session',
    'shellsession',
    'powershell',
    'pwsh',
  ]);
  const platforms = path.join(SOURCE, 'platforms') + path.sep;
  const found = sourceFiles(SOURCE).flatMap((file) => {
    if (file.startsWith(platforms)) return [];
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const named: string[] = [];
    const visit = (node: ts.Node) => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && words.has(node.text))
        named.push(`${shown(file)}: '${node.text}'`);
      ts.forEachChild(node, visit);
    };
    visit(source);
    return named;
  });
  assert.deepEqual(found, []);
});
