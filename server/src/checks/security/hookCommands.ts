import * as path from 'node:path';
import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import { defineRule } from '../engine/rule';
import type { Span } from '../../parse/text/lineIndex';
import type { TextLike } from '../../parse/text/textLike';
import type { YamlSyntax } from '../../parse/yaml/yamlSyntax';
import { nodeAtPath, nodeSpan } from '../../parse/yaml/yamlNodes';
import { HOOK_EVENTS } from '../match/hookEvents';
import { closestName } from '../match/nameDistance';
import { riskyCommand, riskyExecution } from './riskyExecution';
import { LOCAL_HOST, SENDS_DATA } from './shellFlows';

// The commands a skill's Claude Code hooks run: each is told (it runs unasked, on every event it names), and read as
// any command is (a download run, credentials sent); and a hook is handed the tool call or the prompt it fires on, so
// one that sends data over the network may send the session itself.

export const hookRunsCommand = defineRule({
  code: 'hook_runs_command',
  category: 'security',
  severity: 'information',
  summary: 'A Claude Code hook of the skill runs a command without asking.',
  stability: 'stable',
  formats: 'all',
  security: { severity: '3.0', cwe: ['CWE-829'], review: true },
});

/** A hook's command, where it is in SKILL.md, and the event it runs on. */
interface HookCommand {
  command: string;
  event: string;
  matcher?: string;
  span: Span;
}

/** The command hooks of a frontmatter's `hooks` (those under an event a letter off a real one never run). */
function hookCommands(yaml: YamlSyntax, hooks: unknown): HookCommand[] {
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return [];
  const found: HookCommand[] = [];
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups) || (!HOOK_EVENTS.includes(event) && closestName(event, HOOK_EVENTS))) continue;
    groups.forEach((group, g) => {
      const list = (group as { hooks?: unknown })?.hooks;
      if (!Array.isArray(list)) return;
      const matcher = (group as { matcher?: unknown }).matcher;
      list.forEach((hook, h) => {
        const command = (hook as { command?: unknown })?.command;
        if ((hook as { type?: unknown })?.type !== 'command' || typeof command !== 'string') return;
        const at = nodeAtPath(yaml, ['hooks', event, g, 'hooks', h, 'command']);
        const span = at.depth === 6 ? nodeSpan(yaml, at.node) : undefined;
        if (span) found.push({ command, event, matcher: matcher ? String(matcher) : undefined, span });
      });
    });
  }
  return found;
}

/**
 * The command as SKILL.md spells it, where it starts: inside the quotes of a quoted scalar, after the header line of
 * a block scalar (`|`). Escapes in a double-quoted command are rare; a finding in one stays within the value.
 */
function commandText(source: TextLike, span: Span): { start: number; text: string } {
  const raw = source.slice(span.start, span.end);
  if (/^["']/.test(raw)) return { start: span.start + 1, text: raw.slice(1, -1) };
  const block = /^[|>][-+0-9]*[ \t]*(?:#[^\n]*)?\r?\n/.exec(raw);
  return block
    ? { start: span.start + block[0].length, text: raw.slice(block[0].length) }
    : { start: span.start, text: raw };
}

/** An address on this machine: a hook may talk to a local service (a notifier, an editor). */
const LOCAL = new RegExp(`^(?:${LOCAL_HOST})$`, 'i');
/** The hosts a command names, by URL or as `nc host port`. */
function remoteHosts(command: string): string[] {
  const hosts = [...command.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/(?:[^@\s/'"]*@)?([^\s/:'"]+)/gi)].map(
    (match) => match[1],
  );
  const raw = /\b(?:nc|ncat|netcat|socat)\s+(?:-\w+\s+)*([\w.-]+)\s+\d+/.exec(command)?.[1];
  return [...hosts, ...(raw ? [raw] : [])].filter((host) => !LOCAL.test(host));
}

/** What sending a hook's input is, for the message and the preview. */
const SENDS_SESSION = 'sends data over the network from a hook, which Claude Code hands the tool call or prompt';

/**
 * What the skill's hooks run: each told, its command read as any command is, a hook that sends data off the machine,
 * and a hook that runs a script of the skill the rules found risky (`risky`: each risky file's first finding).
 */
export function hookFindings(
  file: string,
  dir: string,
  source: TextLike,
  yaml: YamlSyntax,
  hooks: unknown,
  risky: ReadonlyMap<string, Diagnostic>,
): Diagnostic[] {
  return hookCommands(yaml, hooks).flatMap(({ command, event, matcher, span }) => {
    const on = `${event}${matcher ? ` of ${matcher}` : ''}`;
    const found = [
      diagnostic(
        hookRunsCommand,
        file,
        span,
        `While the skill is active, Claude Code runs \`${command.slice(0, 80)}\` on every ${on}, with the user's permissions and without asking. Check that it does only what the skill says.`,
      ),
    ];
    const own = riskyExecution(file, [commandText(source, span)]).map((item) => ({
      ...item,
      message: `The ${event} hook runs a command that ${item.message.replace(/^This /, '')}`,
    }));
    found.push(...own);
    const hosts = remoteHosts(command);
    if (own.length === 0 && hosts.length > 0 && SENDS_DATA.test(command))
      found.push(
        diagnostic(
          riskyCommand,
          file,
          span,
          `The ${event} hook sends data to \`${hosts[0]}\` on every ${on}: Claude Code hands a hook the tool call or prompt it fires on (file contents, commands, the user's words), so this can send the session off the machine. A skill's hook should keep what it is given on the user's machine; if the skill needs a service, have the user set it up and say what is sent.`,
          { risk: SENDS_SESSION, command: command.slice(0, 120) },
        ),
      );
    // A script of the skill the hook runs, by the path the command names it with.
    for (const [script, item] of risky) {
      const relative = path.relative(dir, script).split(path.sep).join('/');
      if (command.includes(relative))
        found.push({
          code: item.code,
          severity: item.severity,
          message: `The ${event} hook runs \`${relative}\`, which ${String(item.data?.risk ?? 'runs a risky command')}, on every ${on} without asking; see the finding in the script.`,
          file,
          span,
          data: { risk: item.data?.risk },
        });
    }
    return found;
  });
}
