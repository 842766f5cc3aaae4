// Posts the diff summary on the pull request as one comment, updated in place by every later run: a pull request
// pushed ten times has one Skillgraph comment saying what it does now, not ten saying what it did. Run by action.yml's
// "Summarise the change" step with Node's own fetch, so nothing is installed for it.
//   node action/pullRequestComment.mjs SUMMARY.md
// Environment: SKILLGRAPH_TOKEN, SKILLGRAPH_PULL_REQUEST, GITHUB_REPOSITORY, GITHUB_API_URL (api.github.com if unset).
import { readFileSync } from 'node:fs';

/** Opens Skillgraph's comment, so a later run finds it among the pull request's; not shown once rendered. */
const MARKER = '<!-- skillgraph-diff -->';
/** GitHub's largest page of comments. */
const PAGE = 100;

const summary = readFileSync(process.argv[2], 'utf8');
const body = `${MARKER}\n${summary}`;
const { SKILLGRAPH_TOKEN: token, SKILLGRAPH_PULL_REQUEST: pullRequest, GITHUB_REPOSITORY: repository } = process.env;
const api = `${process.env.GITHUB_API_URL || 'https://api.github.com'}/repos/${repository}/issues`;

async function call(method, url, payload) {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}`);
  return response.json();
}

/** The comment an earlier run posted, if any. */
async function earlier() {
  for (let page = 1; ; page++) {
    const comments = await call('GET', `${api}/${pullRequest}/comments?per_page=${PAGE}&page=${page}`);
    const found = comments.find((comment) => typeof comment.body === 'string' && comment.body.startsWith(MARKER));
    if (found || comments.length < PAGE) return found;
  }
}

/** A workflow command's message: `%`, CR and LF escaped, as the runner reads them. */
const escaped = (text) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

try {
  const comment = await earlier();
  if (comment) {
    // Said already: an edit would only mark it edited.
    if (comment.body !== body) await call('PATCH', `${api}/comments/${comment.id}`, { body });
  } else if (!/^### Skillgraph: no skill changed$/m.test(summary)) {
    // A pull request that touches no skill gets no comment; one that did before has it updated above.
    await call('POST', `${api}/${pullRequest}/comments`, { body });
  }
} catch (error) {
  // A pull request from a fork runs with a token that may not comment: the job summary has it all, so the job goes on.
  console.log(
    `::warning title=skillgraph::${escaped(`The diff summary was not posted on the pull request (${error.message}); it is in the job summary.`)}`,
  );
}
