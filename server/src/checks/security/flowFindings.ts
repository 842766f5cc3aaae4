import { diagnostic, type Diagnostic } from '../engine/diagnostic';
import type { Placed } from './skillTexts';
import { shellFlows } from './shellFlows';
import type { ShellFlow } from './shellDataFlow';
import { ADVICE, READS_AND_SENDS, remoteCode, riskyCommand, SENDS_CREDENTIALS } from './riskyExecution';

// The flows of commands as findings: those the shell's parser followed (shellDataFlow.ts), and those read a line at a
// time where the parser does not go (shellFlows.ts: PowerShell, other languages' commands).

/** A flow the shell's parser followed, as a finding at the command that completes it. */
export function flowFinding(file: string, piece: Placed, flow: ShellFlow): Diagnostic {
  const span = { start: piece.start + flow.start, end: piece.start + flow.end, file };
  const line = (at: number) => piece.text.slice(0, at).split('\n').length;
  const where = (at: number) => {
    const above = line(flow.start) - line(at);
    return above === 0
      ? 'on this line'
      : above === 1
        ? 'on the line above'
        : above > 0
          ? `${above} lines above`
          : `on line ${line(at)}`;
  };
  if (flow.kind === 'runsDownload')
    return diagnostic(
      remoteCode,
      file,
      span,
      `This runs a program it downloaded (downloaded ${line(flow.origin.at) === line(flow.start) ? 'on this line' : `on line ${line(flow.origin.at)}`}, from ${flow.origin.what}): \`${flow.command}\`. ${ADVICE.remote_code}`,
      { risk: 'runs a program it downloaded', command: flow.command, ...(flow.url ? { url: flow.url } : {}) },
    );
  const what = `\`${flow.origin.what}\``;
  if (flow.kind === 'readsAndSends')
    return diagnostic(
      riskyCommand,
      file,
      span,
      `This script sends data over the network (\`${flow.command}\`, to ${flow.to}), and ${what.replace(/^`(?:~|\$HOME|\$\{HOME\})\//, '`')} is read on line ${line(flow.origin.at)}: what it sends is not followed through every step, so read whether it holds them. ${SENDS_CREDENTIALS.advice}`,
      { risk: READS_AND_SENDS, command: flow.command },
    );
  return diagnostic(
    riskyCommand,
    file,
    span,
    `This ${SENDS_CREDENTIALS.what}: \`${flow.command}\` sends what was read from ${what} ${where(flow.origin.at)} to ${flow.to}. ${SENDS_CREDENTIALS.advice}`,
    { risk: SENDS_CREDENTIALS.what, command: flow.command },
  );
}

/**
 * The flows of a piece the shell's parser does not read (PowerShell, another language's commands), a line at a time:
 * reported where no line's own risk says it already.
 */
export function lineFlows(file: string, piece: Placed, own: Diagnostic[]): Diagnostic[] {
  const findings: Diagnostic[] = [];
  const reported = new Set(own.map((item) => item.span.start));
  let sent = own.some((item) => item.data?.risk === SENDS_CREDENTIALS.what);
  for (const flow of shellFlows(piece)) {
    if (flow.kind === 'sendsHeldCredentials' ? reported.has(flow.start) : flow.kind === 'sendsCredentials' && sent)
      continue;
    const span = { start: flow.start, end: flow.end, file };
    if (flow.kind === 'sendsHeldCredentials') sent = true;
    findings.push(
      flow.kind === 'sendsHeldCredentials'
        ? diagnostic(
            riskyCommand,
            file,
            span,
            `This ${SENDS_CREDENTIALS.what}: \`${flow.command}\` sends ${flow.origin}. ${SENDS_CREDENTIALS.advice}`,
            { risk: SENDS_CREDENTIALS.what, command: flow.command },
          )
        : flow.kind === 'sendsCredentials'
          ? diagnostic(
              riskyCommand,
              file,
              span,
              `This script sends data over the network (\`${flow.command}\`), and ${flow.origin}: what it sends is not followed through every line, so read whether it holds them. ${SENDS_CREDENTIALS.advice}`,
              { risk: READS_AND_SENDS, command: flow.command },
            )
          : diagnostic(
              remoteCode,
              file,
              span,
              `This runs a program it downloaded (${flow.origin}): \`${flow.command}\`. ${ADVICE.remote_code}`,
              { risk: 'runs a program it downloaded', command: flow.command, ...(flow.url ? { url: flow.url } : {}) },
            ),
    );
  }
  return findings;
}
