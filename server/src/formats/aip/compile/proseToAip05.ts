import * as path from 'node:path';
import type { AnalysisBase } from '../../../analysis/skillAnalysis';
import { commandHoles, riskyCommands } from '../../../checks/match/commandText';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { CURRENT_AIP_VERSION } from '../read/runtimeBlock';
import { aip05Type } from '../../../checks/graph/types';
import {
  aip05SkillMd,
  choiceDecision,
  templateText,
  typedInput,
  UNTYPED,
  type Input,
  type Reference,
} from './aip05Package';
import { blockScript } from '../../../parse/markdown/blockCommands';
import { SHELL_BLOCK_LANGUAGES } from '../../../platforms/shells';
import { fenceLanguage } from '../../../parse/markdown/skillFile';
import type { CompiledFile } from '../../../analysis/format';
import {
  kebab,
  optional,
  plain,
  proseChoices,
  readScaffold,
  uniqueNamer,
  replaceBlock,
  type Scaffold,
  type ScaffoldStep,
  type ScaffoldValue,
} from './proseScaffold';
import { inReadingOrder, stepFindings, strayFenceFindings } from './scaffoldFindings';
import { compileTodo } from '../../../forms/compileFindings';

interface Written {
  /** The steps to emit for this prose step: an approval decision and its gate when it runs risky commands. */
  steps: Record<string, unknown>[];
  /** The first of them: where the previous step hands over. */
  entry: string;
}

/**
 * A prose skill as an AIP 0.5a1 package (the default of `compile --to aip`), deterministically. Every prose step is a
 * `client_task`: the agent does it with the step's instructions as its template, because a prose skill's commands
 * are not scripts that speak the 0.5 protocol (JSON state on stdin, JSON on stdout) and are often alternatives or
 * examples, never one program. So no fenced block is bound as a script: each step's blocks go, as written and in
 * order, to `references/<step>-commands.md`, cited by the step, and the prose cites where each went. A placeholder
 * or a variable its commands never set becomes a declared input; a command that deploys, publishes, pushes,
 * installs globally or deletes is preceded by a decision asking the user's approval and a router that ends the run
 * without it. Sections that are not steps become references every step cites. What the prose does not say is
 * reported as `compile_todo`.
 */
export function proseToAip05(
  analysis: AnalysisBase,
  outDir: string,
): { files: CompiledFile[]; findings: Diagnostic[]; skillMd: string } {
  const name = path.basename(outDir);
  const scaffold = readScaffold(analysis);
  const { outline, steps } = scaffold;
  const findings: Diagnostic[] = [...scaffold.findings];
  const files: CompiledFile[] = [];
  const unique = uniqueNamer(steps.map((step) => step.name));
  const endName = unique('end');
  const sections = sectionReferences(scaffold, files);
  const written = steps.map((step) => writeStep(analysis.text, step, sections, unique, endName, files));
  const last = steps[steps.length - 1];
  // A run the user does not approve ends early, at `end`, before the last step made anything: then `end` can require
  // nothing, and says what a full run leaves.
  const gated = written.some((step) => step.steps.some((item) => item.kind === 'router'));
  const endInputs = gated ? [] : last.outputs.map((value) => input(value));
  const procedure = {
    purpose: scaffold.purpose,
    trigger_when: scaffold.triggerWhen,
    ...optional('do_not_use_when', scaffold.doNotUseWhen),
    steps: [
      ...written.flatMap((step, index) =>
        step.steps.map((item) =>
          item.inputs_to === NEXT ? { ...item, inputs_to: written[index + 1]?.entry ?? endName } : item,
        ),
      ),
      {
        name: endName,
        kind: 'end',
        description:
          last.outputs.length > 0
            ? `What the procedure leaves: ${last.outputs.map((value) => value.name).join(', ')}${gated ? ', when it runs to the end (a run the user does not approve ends early, without it)' : ''}.`
            : 'The procedure is done.',
        inputs: endInputs,
      },
    ],
    ...optional('anti_patterns', scaffold.antiPatterns),
  };
  const skillMd = aip05SkillMd({ ...scaffold.frontmatter, name }, scaffold.metadata, procedure);
  files.push(
    { path: 'SKILL.md', content: skillMd },
    { path: 'source/original-SKILL.md', content: analysis.text },
    {
      path: 'source/README.md',
      content: `# Source\n\nCompiled by \`skillgraph compile --to aip\` (AIP ${CURRENT_AIP_VERSION}) from the prose skill kept here as \`original-SKILL.md\`: ${outline.steps.length} step${outline.steps.length === 1 ? '' : 's'} read from its ${outline.source}. Each step is a \`client_task\` whose template (\`assets/<step>.md\`) holds the step's instructions; its commands are in \`references/<step>-commands.md\` as the skill wrote them.\n`,
    },
  );
  // A block in a section that is not a step went to that section's reference: only the others are stray.
  const inSection = (at: number) =>
    outline.sections.some((section) => section.span.start <= at && at < section.span.end);
  findings.push(...strayFenceFindings(analysis, scaffold).filter((item) => !inSection(item.span.start)));
  const resultFile = path.join(outDir, 'SKILL.md');
  findings.push(
    ...stepFindings(
      scaffold,
      skillMd,
      resultFile,
      'Say in its template what it gives, and declare it in the inputs of the step that takes it.',
    ),
  );
  // A value whose type the prose does not say is written as a string and reported where it is declared.
  const from = skillMd.indexOf('\n```yaml\n');
  for (const match of skillMd
    .slice(from)
    .matchAll(new RegExp(`- name: (\\S+)\\n\\s+type: string\\n\\s+description: ${UNTYPED}`, 'g')))
    findings.push(
      diagnostic(
        compileTodo,
        resultFile,
        { start: from + match.index + 2, end: from + match.index + 2 + `name: ${match[1]}`.length },
        `The prose does not say what type \`${match[1]}\` is; it is written as a string. Give it one of string, integer, float, boolean, object, list[*].`,
      ),
    );
  return { files, findings: inReadingOrder(findings, resultFile), skillMd };
}

/** Marks the hand-over to whatever follows a prose step, filled in once every step is written. */
const NEXT = '\0next';

function input(value: ScaffoldValue): Input {
  return typedInput(value.name, value.type);
}

/** A prose step as a client_task (its template and commands file), behind an approval when it runs risky commands. */
function writeStep(
  source: string,
  step: ScaffoldStep,
  sections: Reference[],
  unique: (base: string) => string,
  endName: string,
  files: CompiledFile[],
): Written {
  const commandsFile = `references/${step.name}-commands.md`;
  const blocks = step.fences.map((fence) => {
    // A block inside a list item is indented with it: written on its own, it starts at the margin.
    const lineStart = source.lastIndexOf('\n', fence.open.start - 1) + 1;
    const indent = /^ */.exec(source.slice(lineStart, fence.open.end))![0].length;
    const code = source
      .slice(fence.content.start, fence.content.end)
      .split('\n')
      .map((line) => line.replace(new RegExp(`^ {0,${indent}}`), ''))
      .join('\n');
    const language = fenceLanguage(fence).toLowerCase();
    return {
      raw: source.slice(fence.open.start, fence.close?.end ?? fence.content.end).trim(),
      block: `\`\`\`${language}\n${code.replace(/\n?$/, '\n')}\`\`\``,
    };
  });
  // What the shell blocks run (in a session at a prompt, the commands and not what they printed) is read for
  // placeholders, unset variables and risk.
  const scripts = step.fences
    .filter((fence) => SHELL_BLOCK_LANGUAGES.has(fenceLanguage(fence)))
    .map((fence) => blockScript(source, fence));
  const holes = [...new Map(scripts.flatMap(commandHoles).map((hole) => [hole.name, hole])).values()];
  const risky = scripts.flatMap(riskyCommands);
  // The prose, each block replaced by where it went: nothing is left introducing a block that is not there.
  let instructions = step.prose.text;
  blocks.forEach((block, index) => {
    instructions = replaceBlock(instructions, block.raw, `(command block ${index + 1} of \`${commandsFile}\`)`);
  });
  const title = plain(step.prose.title)
    .replace(/\s+/g, ' ')
    .replace(/^(.+?[.!?:])\s.*$/, '$1')
    .replace(/[.:]$/, '');
  const alternatives = proseChoices(step);
  const choice =
    alternatives.length > 0
      ? choiceDecision(
          step.name,
          unique(`${step.name}-choice`),
          Object.fromEntries(alternatives.map((item) => [item.label, item.text || null])),
          `Which of the alternatives of "${title}" fits this run? Judge by what the skill says of each, and by the state.`,
        )
      : undefined;
  const produces = step.outputs.map((value) => `\`${value.name}\` (${aip05Type(value.type) ?? 'say which type'})`);
  files.push({
    path: `assets/${step.name}.md`,
    content: `${templateText(instructions.trim())}\n${choice ? `\n${choice.templateLine}\n` : ''}${produces.length > 0 ? `\nWhen done, give ${produces.join(', ')}.\n` : ''}`,
  });
  if (blocks.length > 0)
    files.push({
      path: commandsFile,
      content: `# ${title}: commands\n\nThe commands and examples of this step, as the skill gives them and in its order. They are alternatives or examples unless the step says to run them all; fill each placeholder from the state first.\n\n${blocks.map((block, index) => `## Block ${index + 1}\n\n${block.block}\n`).join('\n')}`,
    });
  const cited = [...new Set(step.prose.text.match(/\breferences\/[\w./-]+\.md\b/g) ?? [])];
  const references: Reference[] = [
    ...(blocks.length > 0
      ? [
          {
            path: commandsFile,
            description: `The ${blocks.length === 1 ? 'command' : `${blocks.length} command blocks`} of this step, as the skill wrote them: load before running anything.`,
          },
        ]
      : []),
    ...cited.map((cite) => ({ path: cite, description: 'Cited by the skill at this step.' })),
    ...sections,
  ];
  const task = {
    name: step.name,
    kind: 'client_task',
    description: plain(step.prose.title).replace(/\s+/g, ' '),
    inputs: [
      ...step.inputs.map((value) => input(value)),
      ...(choice ? [choice.input] : []),
      ...holes
        .filter((hole) => !step.inputs.some((value) => value.name === hole.name))
        .map((hole) => ({
          name: hole.name,
          type: 'string',
          description: `Fills \`${hole.text}\` in ${commandsFile}${hole.kind === 'variable' ? ' (the commands read it and never set it)' : ''}.`,
        })),
    ],
    template: `assets/${step.name}.md`,
    ...(references.length > 0 ? { references } : {}),
    inputs_to: NEXT,
  };
  // A choice is made first; an approval, of what the chosen way runs, comes right before the step.
  const chosen = choice ? [choice.decision] : [];
  if (risky.length === 0) return { steps: [...chosen, task], entry: choice ? String(choice.decision.name) : step.name };
  const question = `approve_${step.name.replace(/-/g, '_')}`;
  const approval = unique(`${step.name}-approval`);
  const gate = unique(`${step.name}-gate`);
  if (choice) choice.decision.inputs_to = approval;
  return {
    entry: choice ? String(choice.decision.name) : approval,
    steps: [
      ...chosen,
      {
        name: approval,
        kind: 'decision',
        description: `The user approves what ${step.name} runs, before it runs.`,
        inputs: [],
        questions: {
          [question]: {
            type: 'noul',
            instructions: `Ask the user whether to run, with every placeholder filled in: ${risky.map((line) => `\`${line}\``).join('; ')}. True only on their explicit yes in this conversation.`,
          },
        },
        inputs_to: gate,
      },
      {
        name: gate,
        kind: 'router',
        description: `Run ${step.name} only with the user's approval; end otherwise.`,
        branch_on: question,
        branches: { true: step.name, false: endName },
      },
      task,
    ],
  };
}

/** The sections no step lies in, each as a reference every step cites. */
function sectionReferences(scaffold: Scaffold, files: CompiledFile[]): Reference[] {
  const used = new Set<string>();
  return scaffold.outline.sections.map((section) => {
    let file = `references/${kebab([plain(section.heading)]) || 'notes'}.md`;
    for (let n = 2; used.has(file); n++) file = file.replace(/(-\d+)?\.md$/, `-${n}.md`);
    used.add(file);
    files.push({ path: file, content: `# ${section.heading}\n\n${section.text}\n` });
    return {
      path: file,
      description: `The skill's "${plain(section.heading)}" section: load it when it bears on this step.`,
    };
  });
}
