import { diagnostic, type Diagnostic } from '../../../checks/engine/diagnostic';
import { checkLink, missingScript } from '../../../checks/links/fileLinks';
import { closestName } from '../../../checks/match/nameDistance';
import type { Span } from '../../../parse/text/lineIndex';
import type { FileSystem } from '../../../workspace/fileSystem';
import { checkPredicates, type PredicateOwner } from './predicates';
import { positionsWhere } from './predicatePositions';
import type { SkillPlusPackage } from './readPackage';
import type { Flow } from './flow';
import type { StateSchema } from './readState';
import { ON_FAIL, SOFT_ON_FAIL, TIP_KEYS, type Rule, type Tip } from './readTipsRules';
import { defineRule, type Rule as LintRule } from '../../../checks/engine/rule';
import { invalidFrontmatter } from '../../../checks/skillFile/container';
import { suggestionFix } from '../../../checks/engine/suggestionFix';

export const unknownRule = defineRule({
  code: 'unknown_rule',
  category: 'skillplus',
  severity: 'error',
  summary: '`rule=` names no rule.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const invalidOnFail = defineRule({
  code: 'invalid_on_fail',
  category: 'skillplus',
  severity: 'error',
  summary: 'A rule without a valid `on_fail`.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const invalidRuleDecorator = defineRule({
  code: 'invalid_rule_decorator',
  category: 'skillplus',
  severity: 'error',
  summary: 'A `@rule(...)` with non-literal arguments, no id, or a function that does not take `(state, ctx)`.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const duplicateRuleId = defineRule({
  code: 'duplicate_rule_id',
  category: 'skillplus',
  severity: 'error',
  summary: 'Two rules share one id.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const tipKeyWithoutWhen = defineRule({
  code: 'tip_key_without_when',
  category: 'skillplus',
  severity: 'warning',
  summary: 'Tip-only keys on a reference without `when`.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const tipTooLong = defineRule({
  code: 'tip_too_long',
  category: 'skillplus',
  severity: 'warning',
  summary: 'A tip body longer than its `max_chars`.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const unusedRuleOrTip = defineRule({
  code: 'unused_rule_or_tip',
  category: 'skillplus',
  severity: 'information',
  summary: 'A rule or tip that applies at no node of the flow.',
  stability: 'stable',
  formats: ['skillplus'],
});

export const specUnknownId = defineRule({
  code: 'spec_unknown_id',
  category: 'skillplus',
  severity: 'warning',
  summary: 'spec.md lists a stage or rule id that does not exist.',
  stability: 'stable',
  formats: ['skillplus'],
  fixable: 'unsafe',
  fix: suggestionFix,
});

export const specUnlistedId = defineRule({
  code: 'spec_unlisted_id',
  category: 'skillplus',
  severity: 'information',
  summary: 'A stage or rule id that spec.md does not list.',
  stability: 'stable',
  formats: ['skillplus'],
});

/** Where a tip or rule can fire: the node ids its `when` may hold at (every node for a rule without `when`). */
export interface Attachment {
  kind: 'tip' | 'rule';
  id: string;
  file: string;
  /** For rules: `advise` and `self-check` are soft (their text is injected), the others hard. */
  soft?: boolean;
  nodes: string[];
}

function report(out: Diagnostic[], rule: LintRule, span: Span, message: string, data?: Record<string, unknown>): void {
  out.push(diagnostic(rule, span.file!, span, message, data));
}

/** The last result per tip and rule (objects a server's parse cache keeps while their file is unchanged). */
const ownerCache = new WeakMap<
  Tip | Rule,
  { key: string; state: StateSchema | undefined; skillFile: string; diagnostics: Diagnostic[]; attachment?: Attachment }
>();

const shapeCache = new WeakMap<Flow, string>();

/**
 * What predicates can see of a flow: stage and node ids, kinds and nesting (not the texts a node holds, which change as
 * one types).
 */
function flowShape(flow: Flow | undefined): string {
  if (!flow) return '';
  let shape = shapeCache.get(flow);
  if (shape === undefined) {
    shape = `${flow.stages.map((stage) => stage.id).join(',')}|${flow.nodes.map((node) => `${node.id}:${node.kind}:${node.stage ?? ''}:${node.parent ?? ''}`).join(',')}`;
    shapeCache.set(flow, shape);
  }
  return shape;
}

function ownerOf(rule: Rule): PredicateOwner {
  const soft = !!rule.onFail && SOFT_ON_FAIL.has(rule.onFail.value);
  return { kind: soft ? 'soft-rule' : 'hard-rule', label: `rule "${rule.id}"` };
}

/**
 * Tips and rules across files: their frontmatter and decorators, their
 * predicates (typed against the State and the flow), `rule=` and script
 * `tool=` links from the flow, loop `until` predicates, where each tip and
 * rule can fire, and how `spec.md` agrees with the flow and the rules.
 */
export function checkTipsAndRules(
  pkg: SkillPlusPackage,
  fs: FileSystem,
  skillFile: string,
): { diagnostics: Diagnostic[]; attachments: Attachment[] } {
  const diagnostics: Diagnostic[] = [];
  const attachments: Attachment[] = [];
  const { flow, state } = pkg;
  const referenced = new Set(flow?.nodes.flatMap((node) => node.rules.map((rule) => rule.value)) ?? []);

  /**
   * A tip's or rule's predicates checked, and where it fires; reused while the flow's shape and the State stay the
   * same.
   */
  const fires = (source: Tip | Rule, kind: Attachment['kind'], owner: PredicateOwner, anchor: Span, soft?: boolean) => {
    const key = `${flowShape(flow)}\u0000${kind === 'rule' && referenced.has(source.id) ? 'named' : ''}`;
    const known = ownerCache.get(source);
    if (known && known.key === key && known.state === state && known.skillFile === skillFile) {
      diagnostics.push(...known.diagnostics);
      if (known.attachment) attachments.push(known.attachment);
      return;
    }
    const result = checkPredicates(owner, source.when, flow, state, skillFile);
    const found = [...result.diagnostics];
    let attachment: Attachment | undefined;
    if (flow) {
      const nodes = new Set<string>();
      if (result.checked.length === 0) for (const node of flow.nodes) nodes.add(node.id);
      for (const item of result.checked)
        if (item.predicate) for (const node of positionsWhere(item.predicate, owner, flow)) nodes.add(node.id);
      // A predicate already found wrong says so itself: that it fires nowhere follows from it.
      const sound = result.checked.every((item) => !item.faulty);
      if (nodes.size === 0 && sound && !(kind === 'rule' && referenced.has(source.id))) {
        report(
          found,
          unusedRuleOrTip,
          anchor,
          `${kind === 'tip' ? 'Tip' : 'Rule'} "${source.id}" applies at no node of the flow: its \`when\` never holds where the flow goes${kind === 'rule' ? ', and no node names it with `rule=`' : ''}.`,
        );
      }
      attachment = {
        kind,
        id: source.id,
        file: source.file,
        ...(soft !== undefined ? { soft } : {}),
        nodes: [...nodes],
      };
    }
    ownerCache.set(source, { key, state, skillFile, diagnostics: found, ...(attachment ? { attachment } : {}) });
    diagnostics.push(...found);
    if (attachment) attachments.push(attachment);
  };

  for (const tip of pkg.tips) {
    for (const problem of tip.frontmatter.problems)
      report(diagnostics, invalidFrontmatter, problem.span, problem.message);
    const maxChars = tip.frontmatter.keys.get('max_chars');
    const length = [...tip.body.trim()].length;
    if (tip.maxChars !== undefined && length > tip.maxChars && maxChars) {
      report(
        diagnostics,
        tipTooLong,
        maxChars.keySpan,
        `The tip is ${length} characters, more than its \`max_chars\` of ${tip.maxChars}: it takes more of the tip budget (${pkg.tipBudget}) than planned.`,
      );
    }
    fires(tip, 'tip', { kind: 'tip', label: `tip "${tip.id}"` }, tip.frontmatter.keys.get('when')!.keySpan);
  }
  for (const reference of pkg.references) {
    for (const problem of reference.problems) report(diagnostics, invalidFrontmatter, problem.span, problem.message);
    for (const key of TIP_KEYS.filter((name) => name !== 'when' && reference.keys.has(name))) {
      report(
        diagnostics,
        tipKeyWithoutWhen,
        reference.keys.get(key)!.keySpan,
        `\`${key}\` only matters on a tip, and this reference has no \`when:\`, so it is never injected by state. Add \`when:\` or remove \`${key}\`.`,
      );
    }
  }

  const ids = new Map<string, Rule>();
  for (const rule of pkg.rules) {
    if (rule.source === 'py') {
      for (const span of rule.dynamic)
        report(
          diagnostics,
          invalidRuleDecorator,
          span,
          '`@rule(...)` takes literal keyword arguments only: the runtime reads them without running the file.',
        );
      if (!rule.id) report(diagnostics, invalidRuleDecorator, rule.idSpan, '`@rule(...)` needs `id="…"`.');
      const params = rule.function?.params ?? [];
      if (rule.function && (params.length !== 2 || params[0] !== 'state' || params[1] !== 'ctx')) {
        report(
          diagnostics,
          invalidRuleDecorator,
          rule.function.span,
          `A rule function takes exactly \`(state, ctx)\`; \`${rule.function.name}\` takes (${params.join(', ')}).`,
        );
      }
    }
    for (const problem of rule.frontmatter?.problems ?? [])
      report(diagnostics, invalidFrontmatter, problem.span, problem.message);
    if (!rule.onFail) {
      const anchor = rule.source === 'py' ? rule.idSpan : rule.frontmatter!.anchor;
      report(
        diagnostics,
        invalidOnFail,
        anchor,
        `Rule "${rule.id}" has no \`on_fail\`: say what happens when it fails (${ON_FAIL.join(', ')}).`,
      );
    } else if (!ON_FAIL.includes(rule.onFail.value)) {
      const suggestion = closestName(rule.onFail.value, ON_FAIL);
      report(
        diagnostics,
        invalidOnFail,
        rule.onFail.span,
        `\`on_fail: ${rule.onFail.value}\` is not one of ${ON_FAIL.join(', ')}${suggestion ? `; did you mean \`${suggestion}\`?` : '.'}`,
        suggestion ? { suggestion } : undefined,
      );
    }
    if (rule.id) {
      const earlier = ids.get(rule.id);
      if (earlier)
        report(
          diagnostics,
          duplicateRuleId,
          rule.idSpan,
          `The rule id "${rule.id}" is already used in ${earlier.file.split('/').slice(-2).join('/')}; \`rule=${rule.id}\` would be ambiguous.`,
        );
      else ids.set(rule.id, rule);
    }
    const owner = ownerOf(rule);
    fires(rule, 'rule', owner, rule.when[0]?.span ?? rule.idSpan, owner.kind === 'soft-rule');
  }

  for (const node of flow?.nodes ?? []) {
    for (const rule of node.rules) {
      if (ids.has(rule.value)) continue;
      const suggestion = closestName(rule.value, [...ids.keys()]);
      report(
        diagnostics,
        unknownRule,
        rule.span,
        `\`rule="${rule.value}"\` of node "${node.id}": no rule has that id${suggestion ? `; did you mean "${suggestion}"?` : '.'} Rules: ${[...ids.keys()].join(', ') || 'none'}.`,
        suggestion ? { suggestion } : undefined,
      );
    }
    for (const tool of node.tools) {
      if (!tool.value.startsWith('scripts/')) continue;
      checkLink(
        { fs, dir: pkg.dir, file: tool.span.file! },
        tool.value,
        tool.span,
        missingScript,
        `The script \`${tool.value}\` of node "${node.id}"`,
        diagnostics,
      );
    }
    if (node.until.length > 0)
      diagnostics.push(
        ...checkPredicates({ kind: 'until', label: `loop "${node.id}"` }, node.until, flow, state, skillFile)
          .diagnostics,
      );
  }

  if (pkg.spec && flow) {
    const listed = { stages: new Set<string>(), rules: new Set<string>() };
    for (const item of pkg.spec.ids) {
      listed[item.section].add(item.id);
      const known = item.section === 'stages' ? flow.stages.map((stage) => stage.id) : [...ids.keys()];
      if (!known.includes(item.id)) {
        const suggestion = closestName(item.id, known);
        report(
          diagnostics,
          specUnknownId,
          item.span,
          `spec.md lists the ${item.section === 'stages' ? 'stage' : 'rule'} "${item.id}", which does not exist${suggestion ? `; did you mean "${suggestion}"?` : '.'}`,
          suggestion ? { suggestion } : undefined,
        );
      }
    }
    for (const stage of flow.stages)
      if (!listed.stages.has(stage.id))
        report(
          diagnostics,
          specUnlistedId,
          stage.idSpan,
          `Stage "${stage.id}" is not listed under \`## Stages\` in spec.md.`,
        );
    for (const [id, rule] of ids)
      if (!listed.rules.has(id))
        report(diagnostics, specUnlistedId, rule.idSpan, `Rule "${id}" is not listed under \`## Rules\` in spec.md.`);
  }
  return { diagnostics, attachments };
}
