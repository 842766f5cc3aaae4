import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { random } from './random';

const TYPES = ['string', 'integer', 'float', 'boolean', 'object', 'list[string]', 'list[object]'];
const VERBS = ['Load', 'Validate', 'Normalise', 'Join', 'Aggregate', 'Score', 'Filter', 'Summarise', 'Render', 'Check'];
const NOUNS = [
  'records',
  'the table',
  'candidate rows',
  'the report',
  'metrics',
  'the index',
  'thresholds',
  'the plan',
];

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
export function aipProcedure(
  steps: number,
  seed = steps,
): { frontmatter: (name: string) => string; procedure: string; scripts: string[] } {
  const next = random(seed);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const outputs: { name: string; type: string; step: number }[] = [];
  const lines = [
    'purpose: >',
    `  A generated procedure of ${steps} steps for benchmarks: typed values flow`,
    '  from step to step, half the steps run scripts.',
    'trigger_when:',
    '  - Benchmarking Skillgraph.',
    'steps:',
  ];
  const scripts: string[] = [];
  for (let i = 0; i < steps; i++) {
    const name = `step-${String(i).padStart(4, '0')}`;
    lines.push(`  - name: ${name}`);
    lines.push(`    description: >`);
    lines.push(`      ${pick(VERBS)} ${pick(NOUNS)} and pass the result on. Read references/guide.md`);
    lines.push(`      when ${pick(NOUNS)} look unusual; never guess a missing value.`);
    if (i > 2 && next() < 0.3)
      lines.push(`    depends_on: [step-${String(i - 1).padStart(4, '0')}, step-${String(i - 3).padStart(4, '0')}]`);
    if (next() < 0.5) {
      const script = `scripts/${name.replace(/-/g, '_')}.py`;
      scripts.push(script);
      lines.push(`    script: ${script}`);
    }
    const recent = outputs.filter((output) => output.step >= i - 4);
    const inputs =
      i === 0
        ? [{ name: 'source-path', type: 'string' }]
        : [
            ...new Set(
              Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(recent.length > 0 ? recent : outputs)),
            ),
          ];
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
  for (const script of scripts)
    writeFileSync(
      path.join(dir, script),
      `"""A generated step script."""\nimport json, sys\njson.dump(json.load(sys.stdin), sys.stdout)\n`,
    );
  writeFileSync(path.join(dir, 'references', 'guide.md'), '# Guide\n\nWhat to do when values look unusual.\n');
  writeFileSync(
    path.join(dir, 'source', 'procedure.schema.json'),
    JSON.stringify({
      $id: 'https://raw.githubusercontent.com/zach-blumenfeld/aip/v0.3a3/assets/aip-schemas/procedure.schema.json',
    }),
  );
  const text = `${frontmatter(name)}\`\`\`yaml\n${procedure}\`\`\`\n`;
  writeFileSync(path.join(dir, 'SKILL.md'), text);
  return { dir, file: path.join(dir, 'SKILL.md'), text, procedure, steps };
}

/**
 * An AIP 0.5 procedure of about `steps` steps: rounds of a decision whose
 * question a router branches on, an execution step (with its script) and a
 * client task on the two branches, joining at the next decision; one `end`.
 */
export function writeAip05Skill(root: string, name: string, steps: number): GeneratedSkill {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  const rounds = Math.max(1, Math.floor((steps - 1) / 4));
  const lines = [
    'purpose: >',
    `  A generated AIP 0.5 procedure of ${rounds * 4 + 1} steps for tests and benchmarks.`,
    'trigger_when:',
    '  - Measuring Skillgraph.',
    'steps:',
  ];
  for (let i = 0; i < rounds; i++) {
    const next = i + 1 < rounds ? `check-${i + 1}` : 'done';
    const script = `scripts/apply_${i}.py`;
    writeFileSync(path.join(dir, script), '"""A generated step script."""\n');
    lines.push(
      `  - name: check-${i}`,
      '    kind: decision',
      `    description: Decide whether round ${i} needs a change, from the ticket and the last result.`,
      '    inputs:',
      `      - name: ${i === 0 ? 'ticket' : `result-${i - 1}`}`,
      '        type: string',
      '    questions:',
      `      needs-change-${i}:`,
      '        type: noul',
      `        instructions: Does round ${i} need a change?`,
      '    thresholds:',
      `      needs-change-${i}: 0.4`,
      `    inputs_to: route-${i}`,
      `  - name: route-${i}`,
      '    kind: router',
      '    description: Changes are applied by script; the rest is reviewed.',
      `    branch_on: needs-change-${i}`,
      '    branches:',
      `      "true": apply-${i}`,
      `      "false": review-${i}`,
      `  - name: apply-${i}`,
      '    kind: execution',
      `    description: Apply the change of round ${i}.`,
      `    script: ${script}`,
      `    inputs_to: ${next}`,
      `  - name: review-${i}`,
      '    kind: client_task',
      `    description: Review round ${i} and note what was found.`,
      `    inputs_to: ${next}`,
    );
  }
  lines.push('  - name: done', '    kind: end', '    description: The ticket, handled.');
  const procedure = lines.join('\n') + '\n';
  const text = `---\nname: ${name}\ndescription: A generated AIP 0.5 procedure. Use when measuring Skillgraph.\nmetadata:\n  aip-version: "0.5a1"\n---\n\n# AIP runtime — format 0.5a1\n\nRun the procedure below as a graph.\n\n\`\`\`yaml\n${procedure}\`\`\`\n`;
  writeFileSync(path.join(dir, 'SKILL.md'), text);
  return { dir, file: path.join(dir, 'SKILL.md'), text, procedure, steps: rounds * 4 + 1 };
}

/** A plain skill like the corpus's: frontmatter, a body of a few sections, links to a reference. */
export function writePlainSkill(root: string, name: string, seed: number): void {
  const next = random(seed);
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'references'), { recursive: true });
  const sections = Array.from(
    { length: 3 + Math.floor(next() * 5) },
    (_, i) =>
      `## Step ${i + 1}\n\n${VERBS[i % VERBS.length]} ${NOUNS[i % NOUNS.length]}. See [the guide](references/guide.md) for details.\n\n- Check the input first.\n- Keep the output short.\n`,
  );
  writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Generated plain skill ${seed} for benchmarks. Use when measuring how checkers scale on many skills.\nlicense: MIT\nmetadata:\n  author: bench\n  version: "1.0"\n---\n\n# ${name}\n\n${sections.join('\n')}`,
  );
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

/** A generated skill+ package: `nodes` flow nodes over ten stages, `tips` tips and `rules` rules, all valid. */
export interface GeneratedPackage {
  dir: string;
  flow: string;
  tip: string;
  flowText: string;
  tipText: string;
}

export function writeSkillplusPackage(
  root: string,
  name: string,
  nodes: number,
  tips: number,
  rules: number,
): GeneratedPackage {
  const dir = path.join(root, name);
  for (const folder of ['references', 'rules', 'scripts']) mkdirSync(path.join(dir, folder), { recursive: true });
  const stages = 10;
  const perStage = Math.ceil(nodes / stages);
  const fields = Array.from({ length: 30 }, (_, i) => `    note_${i}: str = ""`);
  writeFileSync(
    path.join(dir, 'state.py'),
    `from typing import Literal\nfrom pydantic import BaseModel, Field\n\n\nclass Item(BaseModel):\n    title: str\n    score: float = 0.0\n\n\nclass State(BaseModel):\n    topic: str\n    level: Literal["low", "mid", "high"] = "low"\n    approved: bool = False\n    coverage: float = 0.0\n    items: list[Item] = Field(default_factory=list)\n    findings: list[str] = Field(default_factory=list)\n${fields.join('\n')}\n`,
  );
  const lines = [
    '"""A generated flow for benchmarks."""',
    'from skillplus import Flow',
    'from state import State',
    '',
    '',
    'def build(flow: Flow[State]) -> None:',
  ];
  let written = 0;
  for (let s = 0; s < stages && written < nodes; s++) {
    lines.push(`    with flow.stage("stage-${s}", goal="Stage ${s} of the generated work"):`);
    const inStage = Math.min(perStage, nodes - written);
    for (let n = 0; n < inStage; n++, written++) {
      const id = `n${written}`;
      if (n === 3)
        lines.push(
          `        flow.ask("${id}", "Which level for {topic}?", into="level", choices=["low", "mid", "high"])`,
        );
      else if (n === 6) {
        lines.push(`        with flow.loop("${id}", until="coverage >= 0.8", max_rounds=3):`);
        lines.push(
          `            flow.agent("${id}-fill", "Fill the gaps about {topic} (note ${n}).", into="coverage", tool="scripts/search.py")`,
        );
        written++;
      } else if (n === 10) {
        lines.push(`        with flow.fanout("${id}", over="items", item="it", into="findings"):`);
        lines.push(`            flow.agent("${id}-each", "Assess {it.title} scored {it.score}.", rule="rule-0")`);
        written++;
      } else if (n === 14)
        lines.push(`        flow.confirm("${id}", "Continue with {topic} at {level}?", into="approved")`);
      // Each agent reads the note the node before it wrote, and every tenth the skill's input, as written flows do.
      else
        lines.push(
          `        flow.agent("${id}", "Work on ${n % 10 === 0 ? '{topic}' : 'the topic'}: step ${n} of stage ${s}, keep {note_${n % 30}} in mind and pass the result on.", into="note_${(n + 1) % 30}")`,
        );
    }
  }
  const flowText = lines.join('\n') + '\n';
  writeFileSync(path.join(dir, 'flow.py'), flowText);
  writeFileSync(path.join(dir, 'scripts', 'search.py'), '"""Search."""\n');
  for (let i = 0; i < tips; i++) {
    writeFileSync(
      path.join(dir, 'references', `tip-${i}.md`),
      `---\nwhen: stage=stage-${i % stages} and level=${['low', 'mid', 'high'][i % 3]}\npriority: ${i % 7}\n---\nTip ${i}: keep the work on {topic} short and cite a source for each claim.\n`,
    );
  }
  for (let i = 0; i < rules; i++) {
    if (i % 2 === 0)
      writeFileSync(
        path.join(dir, 'rules', `rule-${i}.md`),
        `---\non_fail: ${i % 4 === 0 ? 'self-check' : 'advise'}\nwhen: event=post_node and stage in [stage-${i % stages}, stage-${(i + 1) % stages}]\n---\nRule ${i}: check the last answer against the sources.\n`,
      );
    else
      writeFileSync(
        path.join(dir, 'rules', `rule-${i}.py`),
        `from skillplus import rule\n\n\n@rule(id="rule-${i}", on_fail="deny", when="event=pre_tool and tool in [Bash, web_search]")\ndef rule_${i}(state, ctx):\n    return True\n`,
      );
  }
  const tipText = readFileSync(path.join(dir, 'references', 'tip-0.md'), 'utf8');
  writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: A generated skill+ package for benchmarks. Use when measuring Skillgraph.\nmetadata:\n  skillplus-version: "0.1"\n---\n# ${name}\n\nWork through the flow; tips and rules arrive when they apply.\n`,
  );
  return { dir, flow: path.join(dir, 'flow.py'), tip: path.join(dir, 'references', 'tip-0.md'), flowText, tipText };
}
