import * as path from 'node:path';
import type { AipAnalysis } from '../read/analysis';
import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { aip05Type } from '../../../checks/graph/types';
import { CURRENT_AIP_VERSION } from '../read/runtimeBlock';
import { controlOrder, successors } from '../../../model/controlFlow';
import type { GraphNode, Port } from '../../../model/skillModel';
import type { FileSystem } from '../../../workspace/fileSystem';
import { aip05SkillMd, choiceDecision, templateText, typedInput, type Input, type Reference } from './aip05Package';
import { pairs, scenarios, strings } from './agentSkillFromProcedure';
import type { CompiledFile } from '../../../analysis/format';
import { kebab, optional, plain, stringMetadata, uniqueNamer } from './proseScaffold';
import { inReadingOrder, locate } from './scaffoldFindings';
import { frontmatterOf, keptFiles } from '../../../forms/resultPackage';
import { compileTodo } from '../../../forms/compileFindings';

/** The name the AIP 0.3 source keeps inside the migrated package (its `original-SKILL.md` may already be taken). */
const SOURCE_COPY = 'source/aip-0.3-SKILL.md';

/**
 * The AIP 0.3 top-level keys 0.5 dropped, each kept as a reference every client task cites: what it says still
 * guides the agent, it is just no longer part of the procedure.
 */
const DROPPED_SECTIONS: { key: string; title: string; text: (value: unknown) => string | undefined }[] = [
  {
    key: 'scope_and_approval',
    title: 'Scope and approval',
    text: (value) => (typeof value === 'string' ? value.trim() : undefined),
  },
  { key: 'modes', title: 'Modes', text: (value) => bulletsOf(pairs(value, 'name', 'body')) },
  {
    key: 'search_shortcuts',
    title: 'Search shortcuts',
    text: (value) => bulletsOf(pairs(value, 'category', 'body')),
  },
  { key: 'integrations', title: 'Integrations', text: (value) => bulletsOf(pairs(value, 'partner', 'body')) },
  { key: 'scenarios', title: 'Scenarios', text: (value) => bulletsOf(scenarios(value)) },
];

function bulletsOf(items: string[]): string | undefined {
  return items.length > 0 ? items.map((item) => `- ${item.trim()}`).join('\n') : undefined;
}

/** Whether a script already speaks AIP 0.5's execution protocol: it reads `currentState` from the JSON on stdin. */
function speaksProtocol(script: CompiledFile | undefined): boolean {
  if (!script) return false;
  const text = typeof script.content === 'string' ? script.content : Buffer.from(script.content).toString('utf8');
  return text.includes('currentState');
}

/** A step's first sentence on one line: a 0.5 step's `description` says what it does, its template says how. */
function firstSentence(text: string): string {
  const line = plain(text).replace(/\s+/g, ' ').trim();
  const end = /^(.{20,}?[.!?])(\s|$)/.exec(line);
  const sentence = end ? end[1] : line;
  return sentence.length > 240 ? `${sentence.slice(0, 239).trimEnd()}…` : sentence;
}

function portLine(port: Port): string {
  const type = aip05Type(port.type);
  const description = port.description ? ` — ${port.description.trim().replace(/\s+/g, ' ')}` : '';
  return `- \`${port.name}\`${type ? ` (${type})` : ''}${description}`;
}

/** The first of each name, in order: AIP 0.5 rejects a step declaring one input twice. */
function byName(ports: Port[]): Port[] {
  const seen = new Set<string>();
  return ports.filter((port) => !seen.has(port.name) && seen.add(port.name));
}

/**
 * An AIP 0.3 package as an AIP 0.5a1 package (`compile --to aip` on a 0.3 skill). What 0.5 dropped is moved, never
 * lost: steps run in an order that keeps every `depends_on` (0.5 has one path, `inputs_to`, and routers); a step's
 * `one_of` becomes a decision whose choice the step reads; `parallel` and nullable inputs are said in the step's
 * template (0.5 declares only inputs a step cannot run without); per-step outputs become what the template asks
 * for and the `end` step's inputs; `scope_and_approval`, `modes`, `search_shortcuts`, `integrations` and
 * `scenarios` become references every client task cites. A 0.3 script takes its values on the command line, not
 * the JSON state 0.5's `execution` steps send, so its step is a client task that runs it, and is reported; a script
 * that already reads `currentState` stays an execution step. `metadata.aip` becomes `aip-version`, the schema copy
 * in `source/` goes (0.5 bundles none), and the 0.3 SKILL.md is kept as `source/aip-0.3-SKILL.md`.
 */
export function aip03ToAip05(
  fs: FileSystem,
  analysis: AipAnalysis,
  outDir: string,
): { files: CompiledFile[]; findings: Diagnostic[] } {
  const procedure = analysis.procedure?.value ?? {};
  const findings: Diagnostic[] = [];
  const { metadata, ...frontmatter } = frontmatterOf(analysis);
  const kept = keptFiles(fs, analysis, (file) => !(file.startsWith('source/') && file.endsWith('.schema.json')));
  const taken = new Set(kept.map((file) => file.path));
  const freePath = (base: string) => {
    let candidate = `${base}.md`;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}.md`;
    taken.add(candidate);
    return candidate;
  };
  const files: CompiledFile[] = [];
  const sections: Reference[] = DROPPED_SECTIONS.flatMap(({ key, title, text }) => {
    const content = text(procedure[key]);
    if (content === undefined) return [];
    const file = freePath(`references/${kebab([key])}`);
    files.push({ path: file, content: `# ${title}\n\n${content}\n` });
    return [{ path: file, description: `The skill's ${title.toLowerCase()}: load it when it bears on this step.` }];
  });

  const nodes = analysis.model.nodes.filter((node) => node.kind === 'step');
  const unique = uniqueNamer();
  const nameOf = new Map(nodes.map((node) => [node.id, unique(kebab([node.id]))]));
  const endName = unique('end');
  const next = successors(nodes, analysis.model.edges);
  const steps: Record<string, unknown>[] = [];
  const asClientTask: string[] = [];
  const ordered = controlOrder(nodes, analysis.model.edges);
  for (const node of ordered) {
    const name = nameOf.get(node.id)!;
    const required = byName(node.inputs.filter((port) => !port.nullable));
    const optionalInputs = byName(node.inputs.filter((port) => port.nullable));
    const inputs: Input[] = required.map((port) => typedInput(port.name, port.type, oneLine(port.description)));
    const description = node.description?.text ?? name;
    const choice =
      node.oneOf && node.oneOf.length >= 2
        ? choiceDecision(
            name,
            unique(`${name}-choice`),
            Object.fromEntries(node.oneOf.map((label) => [label, null])),
            `Which alternative fits this run of ${name}? What the step says about them: ${plain(description).replace(/\s+/g, ' ')}`,
          )
        : undefined;
    if (choice) {
      steps.push(choice.decision);
      inputs.push(choice.input);
    }
    const handOver = ordered[ordered.indexOf(node) + 1];
    const inputsTo = handOver ? NEXT_OF(handOver) : endName;
    const script = node.script && kept.find((file) => file.path === node.script!.path);
    if (node.script && speaksProtocol(script)) {
      steps.push({
        name,
        kind: 'execution',
        description: firstSentence(description),
        inputs,
        script: node.script.path,
        inputs_to: inputsTo,
      });
      continue;
    }
    if (node.script) asClientTask.push(name);
    const template = freePath(`assets/${name}`);
    const lines = [templateText(description.trim()), ''];
    if (node.script)
      lines.push(
        `Run \`${node.script.path}\` as described above: it takes its values on the command line and prints its result.`,
        '',
      );
    if (required.length > 0)
      lines.push('The state holds:', ...required.map((port) => templateText(portLine(port))), '');
    if (optionalInputs.length > 0)
      lines.push(
        'Use these too when the state has them (they may be absent):',
        ...optionalInputs.map((port) => templateText(portLine(port))),
        '',
      );
    if (choice) lines.push(choice.templateLine, '');
    if (node.parallel) lines.push('Its sub-tasks may run in parallel.', '');
    if (node.outputs.length > 0)
      lines.push(
        `When done, give: ${byName(node.outputs)
          .map((port) => `\`${port.name}\`${aip05Type(port.type) ? ` (${aip05Type(port.type)})` : ''}`)
          .join(', ')}.`,
        '',
      );
    files.push({ path: template, content: `${lines.join('\n').trim()}\n` });
    const cited = [...new Set(description.match(/\breferences\/[\w./-]*\w/g) ?? [])].filter((cite) =>
      kept.some((file) => file.path === cite),
    );
    const references = [...cited.map((cite) => ({ path: cite, description: 'Cited by this step.' })), ...sections];
    steps.push({
      name,
      kind: 'client_task',
      description: firstSentence(description),
      inputs,
      template,
      ...(references.length > 0 ? { references } : {}),
      inputs_to: inputsTo,
    });
  }
  // What the procedure leaves: the outputs of the steps nothing runs after.
  const results = byName(
    ordered
      .filter((node) => next.get(node.id)!.length === 0)
      .flatMap((node) => node.outputs.filter((port) => !port.nullable)),
  );
  steps.push({
    name: endName,
    kind: 'end',
    description:
      results.length > 0
        ? `What the procedure leaves: ${results.map((port) => port.name).join(', ')}.`
        : 'The procedure is done.',
    inputs: results.map((port) => typedInput(port.name, port.type, oneLine(port.description))),
  });

  const migrated = {
    purpose: typeof procedure.purpose === 'string' ? procedure.purpose.trim() : '',
    trigger_when: strings(procedure.trigger_when),
    ...optional('do_not_use_when', strings(procedure.do_not_use_when)),
    steps: steps.map((step) =>
      typeof step.inputs_to === 'string' && step.inputs_to.startsWith(NEXT)
        ? { ...step, inputs_to: entryOf(steps, nameOf.get(step.inputs_to.slice(NEXT.length))!) }
        : step,
    ),
    ...optional('anti_patterns', strings(procedure.anti_patterns)),
  };
  const name = path.basename(outDir);
  const skillMd = aip05SkillMd({ ...frontmatter, name }, stringMetadata(analysis, metadata, findings, 'aip'), migrated);
  const resultFile = path.join(outDir, 'SKILL.md');
  for (const step of asClientTask)
    findings.push(
      diagnostic(
        compileTodo,
        resultFile,
        locate(skillMd, `- name: ${step}\n`, `- name: ${step}`.length),
        `Step \`${step}\` runs its AIP 0.3 script, which takes its values on the command line, so it is a client task that tells the agent to run it. An AIP 0.5 \`execution\` step sends the state as JSON on stdin ({"currentState": …}) and merges the JSON the script prints; make the script read that to make this an execution step.`,
      ),
    );
  for (const node of nodes)
    for (const port of [...node.inputs, ...node.outputs])
      if (!aip05Type(port.type))
        findings.push(
          diagnostic(
            compileTodo,
            analysis.file,
            port.typeSpan ?? port.nameSpan,
            port.type
              ? `\`${port.type}\` is not an AIP type; \`${port.name}\` is written as a string. Give it one of string, integer, float, boolean, object, list[*].`
              : `\`${port.name}\` has no type, which AIP 0.5 requires; it is written as a string. Give it one of string, integer, float, boolean, object, list[*].`,
          ),
        );
  const sourceReadme = kept.find((file) => file.path === 'source/README.md');
  const readmeBefore = sourceReadme
    ? `${(typeof sourceReadme.content === 'string' ? sourceReadme.content : Buffer.from(sourceReadme.content).toString('utf8')).trimEnd()}\n\n`
    : '# Source\n\n';
  files.push(
    { path: 'SKILL.md', content: skillMd },
    { path: SOURCE_COPY, content: analysis.text },
    {
      path: 'source/README.md',
      content: `${readmeBefore}## Migrated to AIP ${CURRENT_AIP_VERSION}\n\nMigrated by \`skillgraph compile --to aip\` from the AIP 0.3 package kept here as \`${SOURCE_COPY.slice('source/'.length)}\`. Its ${nodes.length} step${nodes.length === 1 ? '' : 's'} run one after another in an order that keeps every \`depends_on\`; what AIP 0.5 has no field for (\`one_of\`, \`parallel\`, optional inputs, per-step outputs${
        sections.length > 0
          ? `, ${DROPPED_SECTIONS.filter((section) => procedure[section.key] !== undefined)
              .map((section) => `\`${section.key}\``)
              .join(', ')}`
          : ''
      }) is said in each step's template or kept under \`references/\`. The 0.3 schema copy is gone: AIP 0.5 bundles none.\n`,
    },
  );
  return {
    files: [...files, ...kept.filter((file) => !files.some((written) => written.path === file.path))],
    findings: inReadingOrder(findings, resultFile),
  };
}

/** Marks a hand-over to a source step, resolved once every step is written (it may be preceded by its decision). */
const NEXT = '\0next:';
const NEXT_OF = (node: GraphNode) => `${NEXT}${node.id}`;

/** Where the run enters a step: its choice decision when it has one. */
function entryOf(steps: Record<string, unknown>[], name: string): string {
  const decision = steps.find((step) => step.kind === 'decision' && step.inputs_to === name);
  return typeof decision?.name === 'string' ? decision.name : name;
}

const oneLine = (text: string | undefined) => text?.trim().replace(/\s+/g, ' ');
