import * as path from 'node:path';
import type { SkillplusAnalysis } from '../read/analysis';
import { walkFlow } from '../read/flow';
import { type SkillPlusPackage } from '../read/readPackage';
import { inWords, ruleText } from '../runtime/modelContext';
import { bodyOf } from '../../../forms/resultPackage';

/** What a plain skill asks of the model where skill+ would act on a failed rule. */
const ON_FAIL: Record<string, string> = {
  advise: 'If it does not hold, say so and go on.',
  'self-check': 'Before going on, check your work against it and fix what does not hold.',
  ask: 'If it does not hold, ask the user before going on.',
  deny: 'If it does not hold, do not do it.',
  stop: 'If it does not hold, stop and tell the user.',
};

/** The flow as a nested list: stages with their goals, each node with its kind, text and the field it fills. */
function flowSection(pkg: SkillPlusPackage): string[] {
  if (!pkg.flow) return [];
  const lines = ['## Map', '', 'Work through the stages in order; inside a stage, follow the nodes as listed.', ''];
  walkFlow(
    pkg.flow,
    (stage) => lines.push(`- **${stage.id}**${stage.goal ? `: ${stage.goal.value.trim()}` : ''}`),
    (node, depth) => {
      const what = [
        node.text?.value.trim().replace(/\s*\n\s*/g, ' '),
        node.into ? `(record it as \`${node.into.value}\`)` : undefined,
      ];
      if (node.kind === 'branch' && node.on) what.push(`depending on \`${node.on.value}\``);
      if (node.kind === 'loop' && node.until.length > 0)
        what.push(
          `repeat until ${inWords(node.until)}${node.maxRounds ? `, at most ${String(node.maxRounds.value)} rounds` : ''}`,
        );
      if (node.kind === 'fanout' && node.over)
        what.push(`for each ${node.item?.value ?? 'item'} in \`${node.over.value}\``);
      if (node.tools.length > 0) what.push(`tools: ${node.tools.map((tool) => `\`${tool.value}\``).join(', ')}`);
      lines.push(
        `${'  '.repeat(depth)}- \`${node.id}\` (${node.kind})${what.some(Boolean) ? `: ${what.filter(Boolean).join(' ')}` : ''}`,
      );
    },
  );
  return [...lines, ''];
}

/**
 * A skill+ package as the body of a plain skill: its brief (the SKILL.md
 * body), the map of the flow, each tip as a "When …" section and each rule
 * as an instruction with what to do when it fails. What skill+ decides at
 * run time (which tip fires, which gate closes) becomes text the model
 * applies itself.
 */
export function agentSkillBodyFromSkillplus(analysis: SkillplusAnalysis, pkg: SkillPlusPackage): string {
  const sections = [bodyOf(analysis).trim(), '', ...flowSection(pkg)];
  if (pkg.tips.length > 0) {
    sections.push('## Tips', '');
    for (const tip of [...pkg.tips].sort((a, b) => b.priority - a.priority))
      sections.push(`### When ${inWords(tip.when)}`, '', tip.body.trim(), '');
  }
  if (pkg.rules.length > 0) {
    sections.push('## Rules', '');
    for (const rule of pkg.rules) {
      const when = rule.when.length > 0 ? `Applies when ${inWords(rule.when)}.` : 'Applies throughout.';
      const checked =
        rule.source === 'py'
          ? ` (skill+ checks it with \`${path.relative(analysis.dir, rule.file).split(path.sep).join('/')}\`; here it is yours to check)`
          : '';
      sections.push(
        `### ${rule.id}`,
        '',
        `${when}${checked}`,
        '',
        ruleText(rule).trim() || `Keep the rule \`${rule.id}\`.`,
        '',
        ON_FAIL[rule.onFail?.value ?? ''] ?? '',
        '',
      );
    }
  }
  return sections.join('\n');
}

/**
 * The files of a skill+ package a plain skill keeps: everything but the flow, State, tips, rules and spec it has turned
 * into text.
 */
export function keptByAgentSkillFromSkillplus(pkg: SkillPlusPackage, dir: string): (relative: string) => boolean {
  const inlined = new Set(
    [
      ...pkg.tips.map((tip) => tip.file),
      ...pkg.rules.map((rule) => rule.file),
      ...(pkg.flow ? [pkg.flow.file] : []),
      ...(pkg.state ? [pkg.state.file] : []),
      ...(pkg.spec ? [pkg.spec.file] : []),
    ].map((file) => path.relative(dir, file).split(path.sep).join('/')),
  );
  return (relative) => !inlined.has(relative) && !relative.startsWith('rules/');
}
