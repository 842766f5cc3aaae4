import type { ControlRef, GraphEdge, GraphNode, NodeKind, Port } from '../../../model/skillModel';
import { valueSpan } from '../../../parse/yaml/scalarText';
import { isStepKind, RESERVED_OUTPUTS, type MetaPlan, type MetaStep, type MetaTemplate } from './metaPlan';

export interface MetaGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  externalInputs: Port[];
  refs: ControlRef[];
}

/** The file span of a reference's characters [from, to) inside a template. */
export function templateSpan(template: MetaTemplate, from: number, to: number) {
  return valueSpan(template.source, from, to);
}

/**
 * The model of a MetaSkill plan: a node per step (its kind, composed skill,
 * guard), `depends_on` control edges, `on_failure` edges from a primary to
 * its substitute, and a data edge for every `outputs.X` binding, from step X
 * into the argument that reads it. `inputs.*` (and `inputs.collected.<step>`)
 * are external inputs of the arguments that read them.
 */
export function buildMetaGraph(plan: MetaPlan): MetaGraph {
  const nodes: GraphNode[] = plan.steps.map(stepNode);
  const byId = new Map<string, GraphNode>();
  for (const node of nodes) if (!byId.has(node.id)) byId.set(node.id, node);
  const edges: GraphEdge[] = [];
  const externalInputs: Port[] = [];
  plan.steps.forEach((step, index) => {
    const node = nodes[index];
    for (const dependency of step.dependsOn) {
      // Following the phase before is implied, not written: never on a step of its own name (a duplicate id, reported
      // as such), which would draw and check as a step that waits for itself.
      if (dependency.implicit && dependency.value === node.id) continue;
      edges.push({
        from: dependency.value,
        to: node.id,
        kind: 'control',
        ...(dependency.implicit ? {} : { span: dependency.span }),
      });
    }
    if (step.onFailure)
      edges.push({
        from: node.id,
        to: step.onFailure.value,
        kind: 'fallback',
        label: 'on failure',
        span: step.onFailure.span,
      });
    for (const template of step.templates) {
      const consumer = node.inputs.find((port) => port.name === template.argument);
      if (!consumer) continue;
      for (const ref of template.read.refs) {
        const span = templateSpan(template, ref.nameStart, ref.nameEnd);
        if (ref.root === 'outputs') {
          const producer = byId.get(ref.name);
          if (producer && producer !== node)
            edges.push({
              from: producer.id,
              to: node.id,
              kind: 'data',
              label: template.argument,
              span,
              consumer,
              producer: producer.outputs[0],
            });
        } else {
          const name =
            ref.member && ref.name === 'collected' ? `inputs.collected.${ref.member.name}` : `inputs.${ref.name}`;
          const whole = templateSpan(
            template,
            ref.start,
            ref.member && ref.name === 'collected' ? ref.member.end : ref.nameEnd,
          );
          externalInputs.push({
            name,
            direction: 'input',
            nodeId: node.id,
            nullable: false,
            span: whole,
            nameSpan: whole,
            feeds: template.argument,
          });
        }
      }
    }
  });
  const refs: ControlRef[] = plan.finalTextStep
    ? [{ target: plan.finalTextStep.value, span: plan.finalTextStep.span, via: 'final_text_mode' }]
    : [];
  return { nodes, edges, externalInputs, refs };
}

function stepNode(step: MetaStep): GraphNode {
  const kind: NodeKind = isStepKind(step.kind) ? step.kind : 'agent';
  const inputs: Port[] = [];
  for (const template of step.templates) {
    if (template.read.refs.length === 0 || inputs.some((port) => port.name === template.argument)) continue;
    // Every value passed is plain text: a type on each port would say nothing.
    inputs.push({
      name: template.argument,
      direction: 'input',
      nodeId: step.id,
      nullable: false,
      span: { start: template.keySpan.start, end: template.valueSpan.end },
      nameSpan: template.keySpan,
    });
  }
  const controlRefs: ControlRef[] = [
    ...step.dependsOn
      .filter((dependency) => !dependency.implicit)
      .map((dependency): ControlRef => ({ target: dependency.value, span: dependency.span, via: 'depends_on' })),
    ...(step.onFailure
      ? [{ target: step.onFailure.value, span: step.onFailure.span, via: 'on_failure' as const }]
      : []),
    ...step.templates.flatMap((template) =>
      template.read.refs
        .filter((ref) => ref.root === 'outputs' && !RESERVED_OUTPUTS.has(ref.name))
        .map((ref): ControlRef => ({
          target: ref.name,
          span: templateSpan(template, ref.nameStart, ref.nameEnd),
          via: 'binding',
          label: template.argument,
        })),
    ),
  ];
  const guard = step.templates.find((template) => template.argument === 'when');
  return {
    id: step.id,
    kind,
    label: step.id,
    span: step.span,
    nameSpan: step.idSpan,
    ...(step.instruction !== undefined ? { description: { text: step.instruction, span: step.span } } : {}),
    inputs,
    outputs: [
      {
        name: 'output',
        direction: 'output',
        nodeId: step.id,
        nullable: false,
        description: "The step's text, read downstream as `outputs." + step.id + '`.',
        span: step.span,
        nameSpan: step.idSpan,
      },
    ],
    links: [],
    controlRefs,
    skillRefs: [
      ...(step.skill ? [{ name: step.skill.value, span: step.skill.span, via: 'skill' as const }] : []),
      ...step.routes.map((route) => ({
        name: route.to.value,
        span: route.to.span,
        via: 'route' as const,
        ...(route.when !== undefined ? { when: route.when } : {}),
      })),
    ],
    ...(guard ? { guard: { text: guard.source.value, span: guard.valueSpan } } : {}),
  };
}
