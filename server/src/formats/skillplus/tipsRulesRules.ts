import { diagnostic, type Diagnostic } from '../../checks/diagnostic';
import { checkLink } from '../../checks/fileLinks';
import { closestName } from '../../checks/nameDistance';
import type { Span } from '../../parse/lineIndex';
import type { FileSystem } from '../../workspace/fileSystem';
import { checkPredicates, positionsWhere, type PredicateOwner } from './predicates';
import type { SkillPlusPackage } from './readPackage';
import type { Flow } from './flow';
import type { StateSchema } from './readState';
import { ON_FAIL, SOFT_ON_FAIL, TIP_KEYS, type Rule, type Tip } from './readTipsRules';

/** Where a tip or rule can fire: the node ids its `when` may hold at (every node for a rule without `when`). */
export interface Attachment {
  kind: 'tip' | 'rule';
  id: string;
  file: string;
  /** For rules: `advise` and `self-check` are soft (their text is injected), the others hard. */
  soft?: boolean;
  nodes: string[];
}

function report(
  out: Diagnostic[],
  code: Diagnostic['code'],
  span: Span,
  message: string,
  data?: Record<string, unknown>,
): void {
  out.push(diagnostic(code, span.file!, span, message, data));
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
          'unused_rule_or_tip',
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
      report(diagnostics, 'invalid_frontmatter', problem.span, problem.message);
    const maxChars = tip.frontmatter.keys.get('max_chars');
    const length = [...tip.body.trim()].length;
    if (tip.maxChars !== undefined && length > tip.maxChars && maxChars) {
      report(
        diagnostics,
        'tip_too_long',
        maxChars.keySpan,
        `The tip is ${length} characters, more than its \`max_chars\` of ${tip.maxChars}: it takes more of the tip budget (${pkg.tipBudget}) than planned.`,
      );
    }
    fires(tip, 'tip', { kind: 'tip', label: `tip "${tip.id}"` }, tip.frontmatter.keys.get('when')!.keySpan);
  }
  for (const reference of pkg.references) {
    for (const problem of reference.problems) report(diagnostics, 'invalid_frontmatter', problem.span, problem.message);
    for (const key of TIP_KEYS.filter((name) => name !== 'when' && reference.keys.has(name))) {
      report(
        diagnostics,
        'tip_key_without_when',
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
          'invalid_rule_decorator',
          span,
          '`@rule(...)` takes literal keyword arguments only: the runtime reads them without running the file.',
        );
      if (!rule.id) report(diagnostics, 'invalid_rule_decorator', rule.idSpan, '`@rule(...)` needs `id="…"`.');
      const params = rule.function?.params ?? [];
      if (rule.function && (params.length !== 2 || params[0] !== 'state' || params[1] !== 'ctx')) {
        report(
          diagnostics,
          'invalid_rule_decorator',
          rule.function.span,
          `A rule function takes exactly \`(state, ctx)\`; \`${rule.function.name}\` takes (${params.join(', ')}).`,
        );
      }
    }
    for (const problem of rule.frontmatter?.problems ?? [])
      report(diagnostics, 'invalid_frontmatter', problem.span, problem.message);
    if (!rule.onFail) {
      const anchor = rule.source === 'py' ? rule.idSpan : rule.frontmatter!.anchor;
      report(
        diagnostics,
        'invalid_on_fail',
        anchor,
        `Rule "${rule.id}" has no \`on_fail\`: say what happens when it fails (${ON_FAIL.join(', ')}).`,
      );
    } else if (!ON_FAIL.includes(rule.onFail.value)) {
      const suggestion = closestName(rule.onFail.value, ON_FAIL);
      report(
        diagnostics,
        'invalid_on_fail',
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
          'duplicate_rule_id',
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
        'unknown_rule',
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
        'missing_script',
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
          'spec_unknown_id',
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
          'spec_unlisted_id',
          stage.idSpan,
          `Stage "${stage.id}" is not listed under \`## Stages\` in spec.md.`,
        );
    for (const [id, rule] of ids)
      if (!listed.rules.has(id))
        report(
          diagnostics,
          'spec_unlisted_id',
          rule.idSpan,
          `Rule "${id}" is not listed under \`## Rules\` in spec.md.`,
        );
  }
  return { diagnostics, attachments };
}
