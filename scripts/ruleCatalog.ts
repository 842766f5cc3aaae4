// Build step: the rule catalog (server/src/rules/catalog.generated.ts), the docs index (docs/rules/README.md) and the
// codes the configuration's schema accepts, all derived from the rules server/src declares
// (`export const x = defineRule({ … })`, checks/engine/rule.ts). Adding a rule is its declaration, its docs page and
// its test; this writes the rest.
//   tsx scripts/ruleCatalog.ts           writes the three files
//   tsx scripts/ruleCatalog.ts --check   writes nothing; exits 1 when a file is not what it would write
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { format } from 'prettier';
import ts from 'typescript';
import { CATEGORIES, type Rule, type RuleCategory } from '../server/src/checks/engine/rule';
import { docsIndex } from './rulesIndex';

const ROOT = path.join(__dirname, '..');
const SOURCE = path.join(ROOT, 'server', 'src');
const CATALOG = path.join(SOURCE, 'rules', 'catalog.generated.ts');
const DOCS_INDEX = path.join(ROOT, 'docs', 'rules', 'README.md');
const CONFIG_SCHEMA = path.join(ROOT, 'schemas', 'skillgraph-config.schema.json');

/** One `defineRule` declaration: where it is, what it exports and the code and category it declares. */
export interface Declared {
  file: string;
  name: string;
  code: string;
  category: RuleCategory;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** Every rule declared in server/src, in file order. */
export function declaredRules(): Declared[] {
  return sourceFiles(SOURCE).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('defineRule(')) return [];
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const found: Declared[] = [];
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const exported = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      for (const declaration of statement.declarationList.declarations) {
        const call = declaration.initializer;
        if (!call || !ts.isCallExpression(call) || call.expression.getText(source) !== 'defineRule') continue;
        const [argument] = call.arguments;
        const literal = (key: string) => {
          if (!argument || !ts.isObjectLiteralExpression(argument)) return undefined;
          const property = argument.properties.find(
            (candidate): candidate is ts.PropertyAssignment =>
              ts.isPropertyAssignment(candidate) && candidate.name.getText(source) === key,
          );
          return property && ts.isStringLiteral(property.initializer) ? property.initializer.text : undefined;
        };
        const name = declaration.name.getText(source);
        const code = literal('code');
        const category = literal('category');
        if (!exported || !code || !category || !(category in CATEGORIES))
          throw new Error(
            `${path.relative(ROOT, file)}: \`${name}\` must be exported and declare its code and one of the categories as literals`,
          );
        found.push({ file, name, code, category: category as RuleCategory });
      }
    }
    return found;
  });
}

/** The codes of the catalog as it stands, in its order (none when there is no catalog yet). */
function previousOrder(): string[] {
  if (!existsSync(CATALOG)) return [];
  return [...readFileSync(CATALOG, 'utf8').matchAll(/^ {2}(\w+), \/\/ ([a-z0-9_]+)$/gm)].map((match) => match[2]);
}

/**
 * The rules in catalog order: as they were, and each new one after the last of its category (or, for a new category,
 * after the categories before it).
 */
export function catalogOrder(rules: Declared[], previous: string[]): Declared[] {
  const byCode = new Map(rules.map((rule) => [rule.code, rule]));
  const ordered = previous.flatMap((code) => (byCode.has(code) ? [byCode.get(code)!] : []));
  const categories = Object.keys(CATEGORIES);
  for (const rule of rules) {
    if (ordered.includes(rule)) continue;
    const rank = categories.indexOf(rule.category);
    // After the last rule of its category or of a category before it: first when there is none.
    let at = ordered.length;
    while (at > 0 && categories.indexOf(ordered[at - 1].category) > rank) at--;
    ordered.splice(at, 0, rule);
  }
  return ordered;
}

function catalogText(rules: Declared[]): string {
  const byFile = new Map<string, string[]>();
  for (const rule of [...rules].sort((a, b) => a.file.localeCompare(b.file)))
    byFile.set(rule.file, [...(byFile.get(rule.file) ?? []), rule.name]);
  const imports = [...byFile].map(([file, names]) => {
    const spec = path.relative(path.dirname(CATALOG), file).replace(/\.ts$/, '').split(path.sep).join('/');
    return `import { ${names.sort().join(', ')} } from '${spec.startsWith('.') ? spec : `./${spec}`}';`;
  });
  return [
    '// Generated by scripts/ruleCatalog.ts (npm run build) from the rules declared in server/src; do not edit.',
    '// Every rule, in a stable order: a new rule goes last in its category, so the index SARIF gives a rule stays.',
    ...imports,
    '',
    'export const RULES = [',
    ...rules.map((rule) => `  ${rule.name}, // ${rule.code}`),
    '] as const;',
    '',
  ].join('\n');
}

async function main(check: boolean): Promise<number> {
  const declared = declaredRules();
  const seen = new Map<string, Declared>();
  for (const rule of declared) {
    const earlier = seen.get(rule.code);
    if (earlier)
      throw new Error(
        `${rule.code} is declared twice: ${path.relative(ROOT, earlier.file)} and ${path.relative(ROOT, rule.file)}`,
      );
    seen.set(rule.code, rule);
  }
  let stale = 0;
  const write = async (file: string, text: string) => {
    // Code as the linter wants it; data and docs as written (the project formats neither: .prettierignore).
    const formatted = file.endsWith('.ts')
      ? await format(text, { filepath: file, printWidth: 120, singleQuote: true })
      : `${text.trimEnd()}\n`;
    if (existsSync(file) && readFileSync(file, 'utf8') === formatted) return;
    if (check) {
      console.error(`${path.relative(ROOT, file)} is out of date: run npm run build`);
      stale++;
    } else writeFileSync(file, formatted);
  };
  await write(CATALOG, catalogText(catalogOrder(declared, previousOrder())));
  // The index describes the rules as declared: read from the catalog just written.
  const { RULES } = (await import(CATALOG)) as { RULES: readonly Rule[] };
  await write(DOCS_INDEX, docsIndex(RULES, readFileSync(DOCS_INDEX, 'utf8')));
  // The configuration's `rules` may name any code, and only those: its schema lists them, for editors to complete.
  const schema = JSON.parse(readFileSync(CONFIG_SCHEMA, 'utf8'));
  schema.$defs.rules.propertyNames.enum = RULES.map((rule) => rule.code);
  await write(CONFIG_SCHEMA, JSON.stringify(schema, null, 2));
  return stale > 0 ? 1 : 0;
}

if (require.main === module)
  main(process.argv.includes('--check')).then(
    (status) => process.exit(status),
    (error: Error) => {
      console.error(error.message);
      process.exit(2);
    },
  );
