import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

// A small library where every governance question has an answer: a deploy with no gate before it, a release that
// reviews first, one deploy script copied into both, an AIP 0.5 router that never reaches its end, a procedure with no
// boundaries, and a skill two others invoke (one of them links to the other).

const AIP_03_HEAD = (name: string, description: string) => `---
name: ${name}
description: ${description}
metadata:
  aip:
    spec: https://github.com/zach-blumenfeld/aip/tree/v0.3a3
    schemaId: https://raw.githubusercontent.com/zach-blumenfeld/aip/v0.3a3/assets/aip-schemas/procedure.schema.json
---
`;

export const DEPLOY_SCRIPT = '#!/bin/sh\nrsync -a public/ "$TARGET"\n';

const FILES: Record<string, string> = {
  'deploy-site/SKILL.md': `${AIP_03_HEAD('deploy-site', 'Builds the site and deploys it. Use when the site must go live.')}
\`\`\`yaml
purpose: Build and deploy the site.
trigger_when:
  - The site must go live.
steps:
  - name: build-site
    description: Build the static site.
    script: scripts/build.sh
    outputs:
      - name: bundle
        type: string
  - name: deploy-site
    description: Upload the bundle to the host.
    script: scripts/deploy.sh
    inputs:
      - name: bundle
        type: string
\`\`\`
`,
  'deploy-site/scripts/build.sh': '#!/bin/sh\nhugo --minify\n',
  'deploy-site/scripts/deploy.sh': DEPLOY_SCRIPT,
  'release-site/SKILL.md': `${AIP_03_HEAD('release-site', 'Reviews the changes, then publishes the release. Use when a release is due.')}
\`\`\`yaml
purpose: Release the site after a review.
trigger_when:
  - A release is due.
do_not_use_when:
  - Only a draft preview is wanted.
steps:
  - name: review-changes
    description: Review the changes since the last release with the owner.
  - name: publish-release
    description: Publish the release.
    script: scripts/push.sh
anti_patterns:
  - Publishing without the review.
\`\`\`
`,
  'release-site/scripts/push.sh': DEPLOY_SCRIPT,
  'route-forever/SKILL.md': `---
name: route-forever
description: Routes a request between two handlers. Use when a request needs a handler.
metadata:
  aip-version: "0.5a1"
---

\`\`\`yaml
purpose: Route a request.
trigger_when:
  - A request needs a handler.
do_not_use_when:
  - The handler is known.
steps:
  - name: start
    kind: client_task
    description: Read the request.
    inputs_to: finish
  - name: pick
    kind: router
    description: Pick a handler.
    branch_on: kind
    branches:
      a: handle-a
      b: handle-b
  - name: handle-a
    kind: client_task
    description: Handle kind a.
    inputs_to: pick
  - name: handle-b
    kind: client_task
    description: Handle kind b.
    inputs_to: pick
  - name: finish
    kind: end
    description: Done.
anti_patterns:
  - Guessing the kind.
\`\`\`
`,
  'ship-docs/SKILL.md': `---
name: ship-docs
description: Ships the docs. Use when docs changed.
---

Run /deploy-site once the docs build.
`,
  'ship-blog/SKILL.md': `---
name: ship-blog
description: Ships the blog. Use when a post is ready.
---

Run /deploy-site once the post is proofread; the docs go out the same way ([ship-docs](../ship-docs/SKILL.md)).
`,
};

/** Writes the library into a new temporary folder and returns it. */
export function writeGovernanceLibrary(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'skillgraph-governance-'));
  for (const [relative, text] of Object.entries(FILES)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return root;
}
