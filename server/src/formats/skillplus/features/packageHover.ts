import * as path from 'node:path';
import type { Hover } from 'vscode-languageserver-types';
import { type FlowNode, type FlowText } from '../read/flow';
import { type Occurrence } from '../read/packageSymbols';
import { predicateInWords } from '../read/predicateWords';
import { BUILTINS } from '../read/predicates';
import { type SkillPlusPackage } from '../read/readPackage';
import { typeName, type StateField } from '../read/readState';
import { SOFT_ON_FAIL, type Rule, type Tip } from '../read/readTipsRules';
import { parsePredicate } from '../../../parse/predicate/predicate';
import { contains, rangeOf, type DocumentView } from '../../../analysis/documentView';
import { occurrenceUnder } from './packageNavigation';
import type { SkillplusAnalysis } from '../read/analysis';

const code = (text: string) => `\`${text}\``;

const EVENT_WORDS: Record<string, string> = {
  stage_enter: 'a stage begins',
  pre_tool: 'before a tool call (hard-rule gates only)',
  post_tool: 'after a tool call',
  post_node: 'after a node is done',
  pre_answer: 'before the final answer (hard-rule gates only)',
};

/** Hover in any file of a skill+ package: fields, stages, nodes, rules, tips, built-ins, events, items. */
export function packageHover(view: DocumentView<SkillplusAnalysis>, offset: number): Hover | null {
  const found = occurrenceUnder(view, offset);
  if (!found) return null;
  const { pkg, occurrence, all } = found;
  if (!occurrence) {
    // On a tip's or rule's `when:` key or anywhere in its opening: what the file is and where it fires.
    const owner = ownerAt(pkg, view.file, offset);
    return owner ? { contents: { kind: 'markdown', value: owner } } : null;
  }
  const value = describe(pkg, occurrence, all);
  return value ? { contents: { kind: 'markdown', value }, range: rangeOf(view, occurrence.span) } : null;
}

function describe(pkg: SkillPlusPackage, occurrence: Occurrence, all: Occurrence[]): string | undefined {
  const symbol = occurrence.symbol;
  const same = all.filter((item) => item.key === occurrence.key);
  switch (symbol.kind) {
    case 'field': {
      const field = pkg.state?.models.get(symbol.model)?.fields.find((item) => item.name === symbol.name);
      return field ? fieldHover(field, same) : undefined;
    }
    case 'stage': {
      const stage = pkg.flow?.stages.find((item) => item.id === symbol.id);
      if (!stage) return `No stage has the id ${code(symbol.id)}.`;
      const nodes = pkg.flow!.nodes.filter((node) => node.stage === stage.id);
      return [
        `**stage** ${code(stage.id)}${stage.goal ? ` — ${stage.goal.value}` : ''}`,
        `Nodes: ${nodes.map((node) => code(node.id)).join(', ') || 'none'}`,
        applying(
          pkg,
          nodes.map((node) => node.id),
        ),
      ]
        .filter(Boolean)
        .join('\n\n');
    }
    case 'node': {
      const node = pkg.flow?.nodes.find((item) => item.id === symbol.id);
      return node ? nodeHover(pkg, node) : `No node has the id ${code(symbol.id)}.`;
    }
    case 'rule': {
      const rule = pkg.rules.find((item) => item.id === symbol.id);
      return rule
        ? ruleHover(pkg, rule)
        : `No rule has the id ${code(symbol.id)} (rules: ${pkg.rules.map((item) => code(item.id)).join(', ') || 'none'}).`;
    }
    case 'tip': {
      const tip = pkg.tips.find((item) => item.id === symbol.id);
      return tip ? tipHover(pkg, tip) : undefined;
    }
    case 'builtin':
      return `**built-in** ${code(symbol.id)}: ${BUILTINS[symbol.id]}`;
    case 'event':
      return EVENT_WORDS[symbol.id] ? `**event** ${code(symbol.id)}: ${EVENT_WORDS[symbol.id]}` : undefined;
    case 'script':
      return `**script** ${code(symbol.path)}: callable at every node; ${same
        .filter((item) => item.role === 'reference')
        .map((item) => item.holder)
        .join(', ')} spotlight${same.length === 1 ? 's' : ''} it.`;
    case 'item': {
      const fanout = pkg.flow?.nodes.find((item) => item.id === symbol.fanout);
      return `**item** ${code(symbol.name)} of the fan-out ${code(symbol.fanout)}: one element of ${code(fanout?.over?.value ?? '?')} per run${fanout?.into ? `, each run adding one to ${code(fanout.into.value)}` : ''}. In predicates it is the built-in \`item\`.`;
    }
  }
}

function fieldHover(field: StateField, same: Occurrence[]): string {
  const holders = (role: Occurrence['role']) => [
    ...new Set(same.filter((item) => item.role === role).map((item) => item.holder)),
  ];
  const writers = holders('write');
  const readers = holders('read');
  const tests = holders('predicate');
  const declaration = `${field.name}: ${field.typeText}${field.defaultText !== undefined ? ` = ${field.defaultText}` : ''}`;
  return [
    '```python\n' + declaration + '\n```',
    `${field.model}.${field.name} — ${typeName(field.type)}${field.nullable ? ' | None' : ''}${field.input ? ' · **input** (the caller supplies it)' : ''}`,
    `Written by: ${writers.join(', ') || (field.input ? 'the caller' : '*no node*')}`,
    readers.length > 0 ? `Read by: ${readers.join(', ')}` : '',
    tests.length > 0 ? `Tested by: ${tests.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** Tips and rules that can fire at the given nodes. */
function applying(pkg: SkillPlusPackage, nodes: string[]): string {
  const here = pkg.attachments.filter((item) => item.nodes.some((node) => nodes.includes(node)));
  const tips = here.filter((item) => item.kind === 'tip').map((item) => code(item.id));
  const rules = here
    .filter((item) => item.kind === 'rule')
    .map((item) => `${code(item.id)}${item.soft ? '' : ' (hard)'}`);
  const named =
    pkg.flow?.nodes
      .filter((node) => nodes.includes(node.id))
      .flatMap((node) => node.rules.map((rule) => code(rule.value))) ?? [];
  return [
    tips.length > 0 ? `Tips that can fire here: ${tips.join(', ')}` : '',
    rules.length + named.length > 0 ? `Rules here: ${[...new Set([...rules, ...named])].join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

function nodeHover(pkg: SkillPlusPackage, node: FlowNode): string {
  const lines = [`**${node.kind}** ${code(node.id)}${node.stage ? ` in stage ${code(node.stage)}` : ''}`];
  if (node.text) lines.push(`> ${node.text.value.replace(/\s+/g, ' ')}`);
  if (node.into) lines.push(`Writes ${code(node.into.value)}`);
  const reads = [node.on, node.over].filter((item): item is FlowText => !!item).map((item) => code(item.value));
  if (reads.length > 0) lines.push(`Reads ${reads.join(', ')}`);
  if (node.tools.length > 0) lines.push(`Tools: ${node.tools.map((tool) => code(tool.value)).join(', ')}`);
  const applies = applying(pkg, [node.id]);
  if (applies) lines.push(applies);
  return lines.join('\n\n');
}

function whenText(texts: FlowText[]): string {
  if (texts.length === 0) return 'always (no `when`)';
  return texts
    .map((text) => {
      const read = parsePredicate(text.value);
      return read.predicate ? predicateInWords(read.predicate) : code(text.value);
    })
    .join(' **or** ');
}

function firesAt(pkg: SkillPlusPackage, kind: 'tip' | 'rule', id: string): string {
  const nodes = pkg.attachments.find((item) => item.kind === kind && item.id === id)?.nodes ?? [];
  return nodes.length > 0 ? `Can fire at: ${nodes.map(code).join(', ')}` : 'Can fire at: *no node of the flow*';
}

function ruleHover(pkg: SkillPlusPackage, rule: Rule): string {
  const soft = !!rule.onFail && SOFT_ON_FAIL.has(rule.onFail.value);
  const named =
    pkg.flow?.nodes.filter((node) => node.rules.some((item) => item.value === rule.id)).map((node) => code(node.id)) ??
    [];
  return [
    `**rule** ${code(rule.id)} (${path.basename(rule.file)}) — on_fail ${code(rule.onFail?.value ?? '?')}: ${soft ? 'soft, its text is injected' : rule.source === 'py' ? 'hard, a gate at the tool seam' : 'hard, a strong instruction'}`,
    rule.message ? `> ${rule.message}` : '',
    `When: ${whenText(rule.when)}`,
    firesAt(pkg, 'rule', rule.id),
    named.length > 0 ? `Named by \`rule=\` at: ${named.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

function tipHover(pkg: SkillPlusPackage, tip: Tip): string {
  return [
    `**tip** ${code(tip.id)} — priority ${tip.priority}, ${tip.once ? 'injected once' : 'injected every turn its `when` holds'}, ${[...tip.body.trim()].length} characters of the ${pkg.tipBudget}-character tip budget`,
    `When: ${whenText(tip.when)}`,
    firesAt(pkg, 'tip', tip.id),
  ].join('\n\n');
}

/** The tip or rule whose file holds `offset` in its opening (frontmatter or decorator). */
function ownerAt(pkg: SkillPlusPackage, file: string, offset: number): string | undefined {
  const tip = pkg.tips.find((item) => item.file === file);
  if (tip) return tip.frontmatter.yaml && offset < tip.frontmatter.bodySpan.start ? tipHover(pkg, tip) : undefined;
  const rule = pkg.rules.find(
    (item) =>
      item.file === file &&
      (item.source === 'md'
        ? !!item.frontmatter && offset < item.frontmatter.bodySpan.start
        : !!item.function && contains({ start: item.idSpan.start, end: item.function.span.end }, offset)),
  );
  return rule ? ruleHover(pkg, rule) : undefined;
}
