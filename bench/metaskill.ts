import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { positionAt, startServer } from '../test/support/lspClient';
import { keystroke } from './lib/keystroke';
import { since, summarize, type Summary } from './lib/stats';

export interface MetaskillEdits {
  skill: string;
  bytes: number;
  steps: number;
  pull: Summary;
}

const EDITS = 60;
/** The corpus's largest compositions: a frontmatter of up to 2,000 lines. */
const SKILLS = ['meta-short-drama', 'meta-paper-write', 'AwesomeWebpageMetaSkill'];

/**
 * One server with the corpus's three largest MetaSkills open; a character
 * typed into (then removed from) the middle of each in turn, each edit timed
 * from didChange to its pulled diagnostics. Only the editor's buffer
 * changes: the corpus files are read, never written.
 */
export async function benchMetaskillEdits(corpus: string): Promise<MetaskillEdits[]> {
  const root = path.join(corpus, 'metaskill', 'opensquilla-opensquilla');
  const session = await startServer({ root, pull: true });
  const open = SKILLS.map((skill) => {
    const file = path.join(root, skill, 'SKILL.md');
    return {
      skill,
      uri: pathToFileURL(file).href,
      text: readFileSync(file, 'utf8'),
      version: 1,
      times: [] as number[],
      steps: 0,
    };
  });
  for (const doc of open) {
    await session.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: doc.uri, languageId: 'markdown', version: 1, text: doc.text },
    });
    await session.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
    const graph = await session.connection.sendRequest<{ nodes: { kind: string }[] }>('skillgraph/graph', {
      uri: doc.uri,
    });
    doc.steps = graph.nodes.filter((node) => node.kind !== 'external-input').length;
  }
  const bytes = open.map((doc) => Buffer.byteLength(doc.text));
  // The first space between two letters after the middle of the file: inside a value of the frontmatter's steps in all
  // three (the first space of any kind fell in an indentation in one of them, where an "x" breaks the YAML and each
  // edit measured a whole parse).
  const at = open.map((doc) => {
    const between = /[A-Za-z] [A-Za-z]/g;
    between.lastIndex = Math.floor(doc.text.length / 2);
    return positionAt(doc.text, between.exec(doc.text)!.index + 1);
  });
  for (let round = 0; round < EDITS; round++) {
    for (const [index, doc] of open.entries()) {
      const start = performance.now();
      await session.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: doc.uri, version: ++doc.version },
        contentChanges: [keystroke(at[index], round)],
      });
      await session.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri: doc.uri } });
      doc.times.push(since(start));
    }
  }
  await session.close();
  return open.map((doc, index) => ({
    skill: doc.skill,
    bytes: bytes[index],
    steps: doc.steps,
    pull: summarize(doc.times),
  }));
}
