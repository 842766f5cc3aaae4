import type { RequestType } from 'vscode-languageserver-protocol';
import type { DocumentView } from '../analysis/documentView';
import type { RunSettings } from '../config/runSettings';
import {
  CheckCompiledRequest,
  CompileRequest,
  CompileTargetsRequest,
  ContextViewRequest,
  FileAtRevisionRequest,
  GraphChangesRequest,
  GraphRequest,
  LibraryViewRequest,
  ModelQuestionsRequest,
  ModelVerdictsRequest,
  SkillInfoRequest,
} from '../protocol';
import { modelQuestionsOf, modelVerdictsOf } from './modelQuestionRequests';
import type { FileSystem } from '../workspace/fileSystem';
import type { LibraryIndex } from './libraryIndex';
import type { Revisions } from './revisions';
import type { ExplicitSettings } from '../config/skillConfig';
import { checkCompiledOf, compileOf, compileTargetsOf, contextOf, graphOf, skillInfoOf } from './skillRequests';

/** What the `skillgraph/*` requests are answered from: the views of open documents and the server's state. */
export interface RequestContext {
  fs: FileSystem;
  /** What each skill is analysed with. */
  bySkill: RunSettings;
  /** The settings given where the server runs (the editor's), which a revision of a skill is analysed with too. */
  explicit: ExplicitSettings;
  revisions: Revisions;
  library: LibraryIndex;
  /** The answer from the view of an open document; `empty` when it belongs to no skill, or when answering failed. */
  onView<T>(uri: string, empty: T, answer: (view: DocumentView) => T): T;
  /** The answer, or `empty` (the error logged) when answering failed. */
  guarded<T>(empty: T, answer: () => T): T;
  /** The views of the open documents. */
  openViews(): DocumentView[];
  /** A key that differs whenever what a skill is analysed with does. */
  analysisKey(view: DocumentView): string;
}

/** One `skillgraph/*` request and how it is answered. */
interface CustomRequest<P, R> {
  type: RequestType<P, R, void>;
  answer(context: RequestContext, params: P): R;
}

const request = <P, R>(type: RequestType<P, R, void>, answer: CustomRequest<P, R>['answer']): CustomRequest<P, R> => ({
  type,
  answer,
});

/**
 * The `skillgraph/*` requests (protocol/requests.ts), each answered by a provider from the request's context: the
 * server wires each to its connection (listenToCustomRequests). Typed by the protocol, so an internal type that no
 * longer fits what travels fails the build here.
 */
const CUSTOM_REQUESTS = [
  request(GraphRequest, (context, { uri }) => context.onView(uri, null, graphOf)),
  request(GraphChangesRequest, (context, { uri, revision }) =>
    context.onView(uri, null, (view) =>
      context.revisions.changes(graphOf(view), revision, context.explicit, context.analysisKey(view)),
    ),
  ),
  request(FileAtRevisionRequest, (context, { uri, file, revision }) =>
    context.onView(uri, null, (view) => context.revisions.fileAt(view.analysis.file, file, revision)),
  ),
  request(ContextViewRequest, (context, { uri, ...params }) =>
    context.onView(uri, null, (view) => contextOf(view, params)),
  ),
  request(CompileTargetsRequest, (context, { uri }) => context.onView(uri, null, compileTargetsOf)),
  request(CompileRequest, (context, params) =>
    context.onView(params.uri, null, (view) =>
      compileOf(context.fs, view, params, context.bySkill.forSkill(view.analysis.file).catalogs),
    ),
  ),
  request(CheckCompiledRequest, (context, params) =>
    context.onView(params.uri, null, (view) =>
      checkCompiledOf(context.fs, view, params, context.bySkill.forSkill(view.analysis.file).catalogs),
    ),
  ),
  request(SkillInfoRequest, (context, { uri }) =>
    context.onView(uri, null, (view) => skillInfoOf(view, context.bySkill)),
  ),
  request(LibraryViewRequest, (context) =>
    context.guarded(null, () => context.library.view(context.bySkill, context.openViews())),
  ),
  request(ModelQuestionsRequest, (context, { uri }) =>
    context.onView(uri, null, (view) => modelQuestionsOf(view, context.bySkill)),
  ),
  request(ModelVerdictsRequest, (context, params) => context.guarded([], () => modelVerdictsOf(params))),
];

/** The methods answered here: every request the protocol declares (test/unit/service/customRequests.test.ts). */
export const CUSTOM_REQUEST_METHODS: readonly string[] = CUSTOM_REQUESTS.map((custom) => custom.type.method);

/** How a host listens to a request: each `skillgraph/*` request is given to it with its answer. */
export type Listen = <P, R>(type: RequestType<P, R, void>, answer: (params: P) => R) => void;

/** Every `skillgraph/*` request, answered from `context`, given to the host to listen to. */
export function listenToCustomRequests(listen: Listen, context: RequestContext): void {
  for (const custom of CUSTOM_REQUESTS as CustomRequest<unknown, unknown>[])
    listen(custom.type, (params) => custom.answer(context, params));
}

/** The answer to one `skillgraph/*` request, from `context` (what the server's connection would answer). */
export function answerCustomRequest<P, R>(type: RequestType<P, R, void>, params: P, context: RequestContext): R {
  const custom = (CUSTOM_REQUESTS as CustomRequest<unknown, unknown>[]).find((candidate) => candidate.type === type);
  if (!custom) throw new Error(`no provider answers ${type.method}`);
  return custom.answer(context, params) as R;
}
