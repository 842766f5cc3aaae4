import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { random } from '../../test/helpers/random';

const TYPES = ['string', 'integer', 'float', 'boolean', 'object', 'list[string]', 'list[object]'];
const VERBS = ['Load', 'Validate', 'Normalise', 'Join', 'Aggregate', 'Score', 'Filter', 'Summarise', 'Render', 'Check'];
const NOUNS = ['records', 'the table', 'candidate rows', 'the report', 'metrics', 'the index', 'thresholds', 'the plan'];

export interface GeneratedSkill {
  dir: string;
  file: string;
  text: string;
  /** The procedure block alone, for peers that read plain YAML. */
  procedure: string;
  steps: number;
}

/**
 * An AIP 0.3 procedure of `steps` steps shaped like the corpus: each step
 * takes one to three outputs of recent steps, produces one or two values,
 * half of them run a script (which exists), some depend on earlier steps
 * explicitly, descriptions are a sentence or two and name a reference.
 */
export function aipProcedure(steps: number, seed = steps): { frontmatter: (name: string) => string; procedure: string; scripts: string[] } {
  const next = random(seed);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const outputs: { name: string; type: string; step: number }[] = [];
  const lines = ['purpose: >', `  A generated procedure of ${steps} steps for benchmarks: typed values flow`, '  from step to step, half the steps run scripts.', 'trigger_when:', '  - Benchmarking Skillgraph.', 'steps:'];
  const scripts: string[] = [];
  for (let i = 0; i < steps; i++) {
    const name = `step-${String(i).padStart(4, '0')}`;
    lines.push(`  - name: ${name}`);
    lines.push(`    description: >`);
    lines.push(`      ${pick(VERBS)} ${pick(NOUNS)} and pass the result on. Read references/guide.md`);
    lines.push(`      when ${pick(NOUNS)} look unusual; never guess a missing value.`);
    if (i > 2 && next() < 0.3) lines.push(`    depends_on: [step-${String(i - 1).padStart(4, '0')}, step-${String(i - 3).padStart(4, '0')}]`);
    if (next() < 0.5) {
      const script = `scripts/${name.replace(/-/g, '_')}.py`;
      scripts.push(script);
      lines.push(`    script: ${script}`);
    }
    const recent = outputs.filter((output) => output.step >= i - 4);
    const inputs = i === 0 ? [{ name: 'source-path', type: 'string' }] : [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(recent.length > 0 ? recent : outputs)))];
    lines.push('    inputs:');
    for (const input of inputs) {
      lines.push(`      - name: ${input.name}`);
      lines.push(`        type: ${input.type}`);
    }
    lines.push('    outputs:');
    for (let o = 0; o < 1 + Math.floor(next() * 2); o++) {
      const output = { name: `value-${i}-${o}`, type: pick(TYPES), step: i };
      outputs.push(output);
      lines.push(`      - name: ${output.name}`);
      lines.push(`        type: ${output.type}`);
      lines.push(`        description: The ${pick(NOUNS)} after step ${i}.`);
    }
  }
  lines.push('anti_patterns:', '  - Skipping validation steps.');
  const procedure = lines.join('\n') + '\n';
  const frontmatter = (name: string) =>
    `---\nname: ${name}\ndescription: A generated AIP procedure for benchmarks. Use when measuring Skillgraph.\nmetadata:\n  aip:\n    spec: https://github.com/zach-blumenfeld/aip/tree/v0.3a3\n    schemaId: https://raw.githubusercontent.com/zach-blumenfeld/aip/v0.3a3/assets/aip-schemas/procedure.schema.json\n---\n\n`;
  return { frontmatter, procedure, scripts };
}

/** Writes a complete AIP 0.3 package (SKILL.md, scripts, references, source schema) and returns it. */
export function writeAipSkill(root: string, name: string, steps: number, seed = steps): GeneratedSkill {
  const { frontmatter, procedure, scripts } = aipProcedure(steps, seed);
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  mkdirSync(path.join(dir, 'references'), { recursive: true });
  mkdirSync(path.join(dir, 'source'), { recursive: true });
  for (const script of scripts) writeFileSync(path.join(dir, script), `"""A generated step script."""\nimport json, sys\njson.dump(json.load(sys.stdin), sys.stdout)\n`);
  writeFileSync(path.join(dir, 'references', 'guide.md'), '# Guide\n\nWhat to do when values look unusual.\n');
  writeFileSync(path.join(dir, 'source', 'procedure.schema.json'), JSON.stringify({ $id: 'https://raw.githubusercontent.com/zach-blumenfeld/aip/v0.3a3/assets/aip-schemas/procedure.schema.json' }));
  const text = `${frontmatter(name)}\`\`\`yaml\n${procedure}\`\`\`\n`;
  writeFileSync(path.join(dir, 'SKILL.md'), text);
  return { dir, file: path.join(dir, 'SKILL.md'), text, procedure, steps };
}

/** A plain skill like the corpus's: frontmatter, a body of a few sections, links to a reference. */
export function writePlainSkill(root: string, name: string, seed: number): void {
  const next = random(seed);
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'references'), { recursive: true });
  const sections = Array.from({ length: 3 + Math.floor(next() * 5) }, (_, i) => `## Step ${i + 1}\n\n${VERBS[i % VERBS.length]} ${NOUNS[i % NOUNS.length]}. See [the guide](references/guide.md) for details.\n\n- Check the input first.\n- Keep the output short.\n`);
  writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Generated plain skill ${seed} for benchmarks. Use when measuring how checkers scale on many skills.\nlicense: MIT\nmetadata:\n  author: bench\n  version: "1.0"\n---\n\n# ${name}\n\n${sections.join('\n')}`);
  writeFileSync(path.join(dir, 'references', 'guide.md'), '# Guide\n\nDetails.\n');
}

/** A workspace of `count` skills: three in four plain, one in four an AIP procedure of 5 to 30 steps. */
export function writeWorkspace(root: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(5, '0')}`;
    if (i % 4 === 3) writeAipSkill(root, name, 5 + (i % 26), i);
    else writePlainSkill(root, name, i);
  }
}
