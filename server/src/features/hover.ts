import type { ProfileSource } from '../platforms/profiles';
import type { Hover } from 'vscode-languageserver-types';
import frontmatterSchema from '../../../schemas/agent-skills.frontmatter.schema.json';
import type { GraphNode, Port } from '../model/skillModel';
import { readText } from '../workspace/readText';
import { formatOf } from '../formats';
import type { Span } from '../parse/text/lineIndex';
import { linkedFile } from './definition';
import { rangeOf, type DocumentView } from '../analysis/documentView';
import { dataEdgesOf, locate } from './locate';
import { schemaAt } from '../document/schemaLookup';
import { leadingDocumentation } from '../document/scriptDocs';

const code = (text: string) => `\`${text}\``;

/**
 * Hover: ports with type and flow, steps with script and I/O, keys with their schema description, scripts with their
 * docstring.
 */
export function hover(view: DocumentView, offset: number): Hover | null {
  const target = locate(view, offset);
  // The format says more where it knows more (a MetaSkill's steps, runtime inputs, bindings, composed skills).
  const own = formatOf(view.analysis).features?.hover?.(view, target);
  const markdown = (value: string, span: Span): Hover => ({
    contents: { kind: 'markdown', value },
    range: rangeOf(view, span),
  });
  switch (target.kind) {
    case 'port':
      return markdown(own ?? portHover(view, target.port), target.port.nameSpan);
    case 'step':
      return markdown(own ?? stepHover(view, target.node), target.node.nameSpan);
    case 'controlRef': {
      const node = view.analysis.model.nodes.find((candidate) => candidate.id === target.ref.target);
      return markdown(
        own ?? (node ? stepHover(view, node) : `No step is named ${code(target.ref.target)}.`),
        target.ref.span,
      );
    }
    case 'skillRef':
      return own === undefined ? null : markdown(own, target.ref.span);
    case 'filter':
      return own === undefined ? null : markdown(own, target.span);
    case 'link': {
      const file = linkedFile(view, target.link.path);
      const read = file ? readText(view.fs, file) : undefined;
      const docs = read?.kind === 'text' ? leadingDocumentation(file!, read.text) : undefined;
      const status = file ? '' : '\n\n*Not found in the skill folder.*';
      const value = `${target.link.role === 'prose' ? 'file' : target.link.role} ${code(target.link.path)}${status}${docs ? `\n\n${docs}` : ''}`;
      return { contents: { kind: 'markdown', value }, range: rangeOf(view, target.link.span) };
    }
    case 'key': {
      const description = keyDescription(view, target.region, target.location.path);
      if (!description) return null;
      // The skill's `name` says how the whole skill is checked.
      const checked =
        target.region === 'frontmatter' && target.location.path.length === 1 && target.location.path[0] === 'name'
          ? `\n\n${checkedFor(view)}`
          : '';
      return {
        contents: {
          kind: 'markdown',
          value: `${code(String(target.location.path[target.location.path.length - 1]))}: ${description}${checked}`,
        },
        range: rangeOf(view, target.span),
      };
    }
    default:
      return null;
  }
}

const PROFILE_SOURCES: Record<ProfileSource, string> = {
  default: 'the default',
  setting: 'the editor setting',
  config: 'the configuration file',
  location: 'the client folder the skill is in',
  metaskill: "a MetaSkill is OpenSquilla's",
};

/** How the skill is checked: its profile, why that one, and strictness. */
function checkedFor(view: DocumentView): string {
  const { profile, strict } = view.analysis;
  return `*Checked for ${code(profile.id)} (${PROFILE_SOURCES[profile.source]})${strict ? ", with the reference validator's verdict (strict)" : ''}.*`;
}

function portHover(view: DocumentView, port: Port): string {
  const { producers, consumers } = dataEdgesOf(view, port);
  const type = port.type ? `: ${code(port.type)}` : '';
  const lines = [`**${port.direction}** ${code(port.name)}${type}${port.nullable ? ' (nullable)' : ''}`];
  if (port.description) lines.push(port.description);
  if (port.direction === 'input') {
    const external = view.analysis.model.externalInputs.includes(port);
    lines.push(
      producers.length > 0
        ? `Produced by ${producers.map((item) => `${code(item.nodeId)}${item.type ? ` as ${code(item.type)}` : ''}`).join(', ')}`
        : external
          ? 'External input: the user or the environment supplies it.'
          : 'No step declares it as an output.',
    );
  } else {
    lines.push(
      consumers.length > 0
        ? `Consumed by ${[...new Set(consumers.map((item) => code(item.nodeId)))].join(', ')}`
        : 'No step consumes it.',
    );
  }
  return lines.join('\n\n');
}

function stepHover(view: DocumentView, node: GraphNode): string {
  const kind = node.kind === 'step' ? 'step' : `${node.kind.replace('_', ' ')} step`;
  const lines = [
    `**${kind}** ${code(node.id)}${node.script ? ` — runs ${code(node.script.path)}` : ' — done by the agent'}`,
  ];
  if (node.description) lines.push(node.description.text.trim());
  const ports = (list: Port[]) =>
    list.length > 0 ? list.map((port) => `${port.name}${port.type ? `: ${port.type}` : ''}`).join(', ') : '—';
  lines.push(`${ports(node.inputs)} → ${ports(node.outputs)}`);
  const before = view.analysis.model.edges
    .filter((edge) => edge.kind !== 'data' && edge.to === node.id)
    .map((edge) => code(edge.from));
  if (before.length > 0) lines.push(`After ${[...new Set(before)].join(', ')}`);
  return lines.join('\n\n');
}

function keyDescription(
  view: DocumentView,
  region: 'frontmatter' | 'procedure',
  path: (string | number)[],
): string | undefined {
  const own = formatOf(view.analysis).features?.keyDescription?.(view, region, path);
  if (own !== undefined || region !== 'frontmatter') return own;
  return schemaAt(frontmatterSchema, path)?.description;
}
